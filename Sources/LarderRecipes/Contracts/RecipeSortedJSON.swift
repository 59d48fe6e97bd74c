import LarderJSON

// The recipe contract written by ``SortedJSONBuilder`` (issue 18): the same bytes and tree as `SortedJSONEncoder`
// over the types' synthesised `Encodable` conformances, without their machinery. Each type names its `CodingKeys` in
// UTF-8 byte order (capitals before lower case: "lineEnd" < "lineStart", "max" < "maxServings"), writes
// `@ExplicitNull` members as `null` and leaves plain optionals out when nil, as the synthesised code does.
// `RecipeJSONTests` compares the two over the samples and the shared recipes; a member added to a type must be
// added here too (the test fails until it is).

/// Where an ingredient's or step's text is in the document's lines that its provenance names: the stored form's
/// `textAt` range (`LineReferences` in LarderStages defines it), or nil to keep the text. With one, the writers below
/// also record the stored form as the builder's edited form (``SortedJSONBuilder/editedText()``): the `text` member
/// dropped and `"textAt":[from,to]` written last in its object, as the stored form's definition does it by parsing.
public protocol RecipeTextLocator {
    func range(of text: String, in provenance: Provenance) -> Range<Int>?
}

extension SortedJSONBuilder {
    /// The edit of a `text` member written at `member` (from the comma before its key to the end of its value) in an
    /// object whose members are all written now: the member dropped, `textAt` written before the closing brace.
    mutating func referToLines(
        _ text: String, member: Range<Int>, _ provenance: Provenance, _ locator: (any RecipeTextLocator)?
    ) {
        guard let locator, let range = locator.range(of: text, in: provenance) else { return }
        edit(member, replacement: [])
        edit(byteCount..<byteCount, replacement: Array(",\"textAt\":[\(range.lowerBound),\(range.upperBound)]".utf8))
    }
}

extension Provenance {
    public func write(to json: inout SortedJSONBuilder) {
        json.object { json in
            json.key("lineEnd"); json.number(lineEnd)
            json.key("lineStart"); json.number(lineStart)
            json.key("page"); json.number(page)
        }
    }
}

extension RecipeQuantity {
    public func write(to json: inout SortedJSONBuilder) throws {
        try json.object { json in
            json.key("max"); try json.number(max)
            json.key("value"); try json.number(value)
        }
    }

    static func write(_ quantity: RecipeQuantity?, to json: inout SortedJSONBuilder) throws {
        if let quantity { try quantity.write(to: &json) } else { json.null() }
    }
}

extension RecipeAmount {
    public func write(to json: inout SortedJSONBuilder) throws {
        try json.object { json in
            json.key("quantity"); try quantity.write(to: &json)
            json.key("unit"); json.string(unit)
        }
    }
}

extension RecipeYield {
    public func write(to json: inout SortedJSONBuilder) throws {
        try json.object { json in
            json.key("maxServings"); try json.number(maxServings)
            json.key("servings"); try json.number(servings)
            json.key("text"); json.string(text)
            json.key("unit"); json.string(unit)
        }
    }
}

extension IngredientAllergen {
    public func write(to json: inout SortedJSONBuilder) {
        json.object { json in
            json.key("allergen"); json.string(allergen)
            json.key("keyword"); json.string(keyword)
        }
    }
}

extension IngredientBase {
    public func write(to json: inout SortedJSONBuilder) throws {
        try json.object { json in
            json.key("alternatives"); json.array(alternatives)
            json.key("category"); json.string(category)
            json.key("confidence"); try json.number(confidence)
            json.key("evidence"); json.array(evidence)
            json.key("ingredient"); json.string(ingredient)
            json.key("parent"); json.string(parent)
        }
    }
}

extension ScaledFrom {
    public func write(to json: inout SortedJSONBuilder) throws {
        try json.object { json in
            json.key("additionalAmounts"); try json.array(additionalAmounts) { try $1.write(to: &$0) }
            json.key("note"); json.string(note)
            json.key("quantity"); try RecipeQuantity.write(quantity, to: &json)
            json.key("unit"); json.string(unit)
            json.key("unitText"); json.string(unitText)
        }
    }
}

extension RecipeIngredient {
    public func write(to json: inout SortedJSONBuilder, locator: (any RecipeTextLocator)? = nil) throws {
        try json.object { json in
            json.key("additionalAmounts"); try json.array(additionalAmounts) { try $1.write(to: &$0) }
            json.key("allergens"); json.array(allergens) { $1.write(to: &$0) }
            json.key("alternatives"); json.array(alternatives)
            json.key("base")
            if let base { try base.write(to: &json) } else { json.null() }
            json.key("comment"); json.string(comment)
            json.key("confidence"); try json.number(confidence)
            json.key("name"); json.string(name)
            json.key("optional"); json.bool(optional)
            json.key("preparation"); json.string(preparation)
            json.key("provenance"); provenance.write(to: &json)
            json.key("purpose"); json.string(purpose)
            json.key("quantity"); try RecipeQuantity.write(quantity, to: &json)
            if let scaledFrom { json.key("scaledFrom"); try scaledFrom.write(to: &json) }
            json.key("size"); json.string(size)
            let textStart = json.byteCount  // the comma before the key: `text` is never the first member
            json.key("text"); json.string(text)
            let member = textStart..<json.byteCount
            json.key("unit"); json.string(unit)
            json.key("unitText"); json.string(unitText)
            json.referToLines(text, member: member, provenance, locator)
        }
    }
}

extension IngredientGroup {
    public func write(to json: inout SortedJSONBuilder, locator: (any RecipeTextLocator)? = nil) throws {
        try json.object { json in
            json.key("ingredients"); try json.array(ingredients) { try $1.write(to: &$0, locator: locator) }
            json.key("name"); json.string(name)
        }
    }
}

extension StepDuration {
    public func write(to json: inout SortedJSONBuilder) throws {
        try json.object { json in
            json.key("maxMinutes"); try json.number(maxMinutes)
            json.key("minutes"); try json.number(minutes)
            json.key("text"); json.string(text)
        }
    }
}

extension StepTemperature {
    public func write(to json: inout SortedJSONBuilder) throws {
        try json.object { json in
            json.key("gasMark"); try json.number(gasMark)
            json.key("text"); json.string(text)
            json.key("unit"); json.string(unit)
            json.key("value"); try json.number(value)
        }
    }
}

extension StepIngredientRef {
    public func write(to json: inout SortedJSONBuilder) {
        json.object { json in
            json.key("group"); json.number(group)
            json.key("index"); json.number(index)
            json.key("name"); json.string(name)
        }
    }
}

extension RecipeStep {
    public func write(to json: inout SortedJSONBuilder, locator: (any RecipeTextLocator)? = nil) throws {
        try json.object { json in
            json.key("durations"); try json.array(durations) { try $1.write(to: &$0) }
            json.key("ingredients"); json.array(ingredients) { $1.write(to: &$0) }
            json.key("number"); json.number(number)
            json.key("provenance"); provenance.write(to: &json)
            if let section { json.key("section"); json.string(section) }
            json.key("temperatures"); try json.array(temperatures) { try $1.write(to: &$0) }
            let textStart = json.byteCount
            json.key("text"); json.string(text)
            json.referToLines(text, member: textStart..<json.byteCount, provenance, locator)
        }
    }
}

extension RecipeSourceInfo {
    public func write(to json: inout SortedJSONBuilder) {
        json.object { json in
            json.key("file"); json.string(file)
            json.key("format"); json.string(format)
            if let member { json.key("member"); json.string(member) }
            if let node { json.key("node"); json.string(node) }
            json.key("pages"); json.array(pages) { $0.number($1) }
            json.key("sha256"); json.string(sha256)
            if let url { json.key("url"); json.string(url) }
        }
    }
}

extension RecipePhoto {
    public func write(to json: inout SortedJSONBuilder) {
        json.object { json in
            json.key("bytes"); json.number(bytes)
            json.key("mediaType"); json.string(mediaType)
            json.key("sha256"); json.string(sha256)
        }
    }
}

extension DietLabel {
    public func write(to json: inout SortedJSONBuilder) {
        json.object { json in
            json.key("diet"); json.string(diet)
            json.key("evidence"); json.array(evidence)
            json.key("status"); json.string(status)
        }
    }
}

extension RecipeScaling {
    public func write(to json: inout SortedJSONBuilder) throws {
        try json.object { json in
            json.key("factor"); try json.number(factor)
            json.key("originalMaxServings"); try json.number(originalMaxServings)
            json.key("originalServings"); try json.number(originalServings)
            json.key("servings"); try json.number(servings)
            json.key("units"); json.string(units)
        }
    }
}

extension Recipe {
    /// The recipe as ``SortedJSONEncoder`` writes it (see the top of this file); with a `locator`, its stored form
    /// as the builder's edited form too.
    public func write(to json: inout SortedJSONBuilder, locator: (any RecipeTextLocator)? = nil) throws {
        try json.object { json in
            if let author { json.key("author"); json.string(author) }
            json.key("confidence"); try json.number(confidence)
            json.key("cookMinutes"); try json.number(cookMinutes)
            json.key("cuisine"); json.string(cuisine)
            json.key("description"); json.string(description)
            json.key("diets")
            if let diets { json.array(diets) { $1.write(to: &$0) } } else { json.null() }
            if let image { json.key("image"); json.string(image) }
            json.key("ingredientGroups"); try json.array(ingredientGroups) { try $1.write(to: &$0, locator: locator) }
            json.key("language"); json.string(language)
            json.key("mealType"); json.string(mealType)
            json.key("notes"); json.array(notes)
            if let nutrition { json.key("nutrition"); json.object(nutrition) { $0.string($1) } }
            if let photo { json.key("photo"); photo.write(to: &json) }
            json.key("prepMinutes"); try json.number(prepMinutes)
            json.key("provenance"); json.object(provenance) { $1.write(to: &$0) }
            if let scaling { json.key("scaling"); try scaling.write(to: &json) }
            json.key("source"); source.write(to: &json)
            json.key("steps"); try json.array(steps) { try $1.write(to: &$0, locator: locator) }
            json.key("tags"); json.array(tags)
            json.key("title"); json.string(title)
            json.key("totalMinutes"); try json.number(totalMinutes)
            json.key("yields")
            if let yields { try yields.write(to: &json) } else { json.null() }
        }
    }
}
