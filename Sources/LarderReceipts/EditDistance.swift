/// Edit distance, for fuzzy matching of OCR'd product names and store names.
public enum EditDistance {
    /// The Levenshtein distance between two character arrays.
    public static func levenshtein(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The letters to insert or delete (no replacements) to turn `a` into `b`: their lengths minus twice their
    /// longest common subsequence.
    public static func insertionsAndDeletions(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return a.count + b.count }
        var previous = [Int](repeating: 0, count: b.count + 1)
        var current = previous
        for i in 1...a.count {
            for j in 1...b.count {
                current[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : max(previous[j], current[j - 1])
            }
            swap(&previous, &current)
        }
        return a.count + b.count - 2 * previous[b.count]
    }
}
