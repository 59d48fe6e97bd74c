import LarderRecipes

/// The ingredients, steps and notes an import may still make: the `recipe` stage's limit
/// (`PipelineConfig.Limits.maxRecipeParts`, one part per 2 KiB of `limits.max_stage_output_bytes`), as the text and
/// HTML readers charge it (``RecipePartsOverLimit``). Each app-export reader charges its recipes as it reads them
/// (MasterCook XML each ingredient and step; the others each recipe or row), so a file that holds more stops there,
/// over the limit, instead of being read, parsed and enriched whole: a 15 MB MealMaster file of 700,000 ingredient
/// lines would make gigabytes of results before the output-size limit saw them.
public struct PartBudget: Sendable {
    public let limit: Int
    /// Parts charged so far.
    public private(set) var used = 0

    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// No limit (tests, tools reading one export on purpose).
    public static var unlimited: PartBudget { PartBudget(limit: .max) }

    /// Counts `parts` more; throws once the total passes the limit.
    public mutating func charge(_ parts: Int) throws(RecipePartsOverLimit) {
        used = used.addingReportingOverflow(parts).overflow ? .max : used + parts
        if used > limit { throw RecipePartsOverLimit(parts: used, limit: limit) }
    }

    /// Counts a recipe's ingredient lines, steps and notes.
    public mutating func charge(_ draft: RecipeDraft) throws(RecipePartsOverLimit) {
        try charge(draft.partCount)
    }
}

extension RecipeDraft {
    /// Ingredient lines, steps and notes: what ``PartBudget`` counts.
    public var partCount: Int {
        ingredientGroups.reduce(0) { $0 + $1.lines.count } + steps.count + notes.count
    }
}
