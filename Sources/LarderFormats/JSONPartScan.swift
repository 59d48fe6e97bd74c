import Foundation

/// Counts the recipe parts a JSON export lists, from its bytes, before it is parsed: the items of every array under
/// a key that holds ingredients, steps or notes (schema.org's `recipeIngredient` and `recipeInstructions`, Mealie's
/// `recipe_ingredient`, Tandoor's `steps` and their `ingredients`, …), at any depth, and the lines of a string under
/// `ingredients` or `directions` (Paprika). A 15 MB Mealie `recipe.json` of 340,000 ingredients took a worker past
/// 1 GiB in `JSONSerialization` alone; counted first, it fails at once (``PartBudget``). One pass, no allocation.
enum JSONPartScan {
    static let listKeys: Set<String> = [
        "recipeIngredient", "ingredients", "recipeInstructions", "instructions_list", "instructions",
        "recipe_ingredient", "recipe_instructions", "steps", "notes", "directions",
    ]

    /// The parts listed, counting stopped once past `limit`.
    static func listedParts(_ data: Data, limit: Int) -> Int {
        data.withUnsafeBytes { raw in count(raw.bindMemory(to: UInt8.self), limit: limit) }
    }

    private static func count(_ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        // For each open container: whether it is an array whose items count.
        var counting: [Bool] = []
        var parts = 0
        var lastString: (start: Int, end: Int)?  // the most recent string, a key when ':' follows it
        var key: (start: Int, end: Int)?  // the key whose value comes next
        var i = 0
        while i < b.count && parts <= limit {
            let c = b[i]
            switch c {
            case UInt8(ascii: "\""):
                let start = i + 1
                var newlines = 0
                i += 1
                while i < b.count && b[i] != UInt8(ascii: "\"") {
                    if b[i] == UInt8(ascii: "\\") {
                        if i + 1 < b.count && b[i + 1] == UInt8(ascii: "n") { newlines += 1 }
                        i += 1
                    }
                    i += 1
                }
                lastString = (start, i)
                // A string value under a listing key (Paprika's ingredients and directions): its lines.
                if let k = key, isListKey(b, k) { parts += newlines + 1 }
                key = nil
            case UInt8(ascii: ":"):
                key = lastString
            case UInt8(ascii: "["):
                let counts = key.map { isListKey(b, $0) } ?? false
                counting.append(counts)
                key = nil
                if counts, let next = firstNonSpace(b, after: i), b[next] != UInt8(ascii: "]") { parts += 1 }
            case UInt8(ascii: "{"):
                counting.append(false)
                key = nil
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                _ = counting.popLast()
                key = nil
            case UInt8(ascii: ","):
                if counting.last == true { parts += 1 }
                key = nil
            default:
                break
            }
            i += 1
        }
        return parts
    }

    private static func isListKey(_ b: UnsafeBufferPointer<UInt8>, _ range: (start: Int, end: Int)) -> Bool {
        let length = range.end - range.start
        guard length > 0 && length <= 20 else { return false }
        let name = String(decoding: UnsafeBufferPointer(rebasing: b[range.start..<range.end]), as: UTF8.self)
        return listKeys.contains(name)
    }

    private static func firstNonSpace(_ b: UnsafeBufferPointer<UInt8>, after i: Int) -> Int? {
        var j = i + 1
        while j < b.count, b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x0D || b[j] == 0x09 { j += 1 }
        return j < b.count ? j : nil
    }
}
