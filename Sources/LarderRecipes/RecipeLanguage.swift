import Foundation

/// The language a recipe is written in, from its commonest short words (articles, prepositions, conjunctions) —
/// English, German, French, Italian, Spanish or Dutch. Cheap and explainable: each language's function words are
/// counted over the recipe's title, ingredient lines and steps; the language with the most wins if it has at least
/// 3 hits and 1.5 × the runner-up's, else the language is unknown (`nil`).
enum RecipeLanguage {
    static let functionWords: [(code: String, words: Set<String>)] = [
        ("en", ["the", "and", "with", "to", "of", "for", "until", "into", "in", "a", "or", "then", "it", "on"]),
        ("de", ["und", "der", "die", "das", "mit", "den", "dem", "für", "bis", "auf", "ein", "eine", "oder", "dann", "zu", "im", "etwa"]),
        ("fr", ["et", "le", "la", "les", "de", "du", "des", "avec", "pour", "dans", "un", "une", "jusqu", "puis", "au"]),
        ("it", ["e", "il", "la", "di", "con", "per", "che", "in", "un", "una", "del", "della", "fino", "poi", "al"]),
        ("es", ["y", "el", "la", "los", "las", "de", "con", "para", "en", "un", "una", "del", "hasta", "luego", "al"]),
        ("nl", ["en", "de", "het", "een", "met", "van", "voor", "tot", "in", "op", "dan", "of", "aan"]),
    ]

    static func detect(_ recipe: Recipe) -> String? {
        let text = ([recipe.title] + recipe.allIngredients.map(\.text) + recipe.steps.map(\.text)).joined(separator: " ")
        let words = text.lowercased().split { !$0.isLetter }
        var scores: [(String, Int)] = functionWords.map { ($0.code, 0) }
        for word in words {
            let w = String(word)
            for (k, language) in functionWords.enumerated() where language.words.contains(w) { scores[k].1 += 1 }
        }
        scores.sort { $0.1 > $1.1 }
        guard let best = scores.first, best.1 >= 3, Double(best.1) >= 1.5 * Double(scores[1].1) else { return nil }
        return best.0
    }
}
