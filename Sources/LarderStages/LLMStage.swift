import Foundation
import LarderCore
import LarderJSON
import LarderLLM
import LarderReceipts
import LarderRecipes

/// Stage 7, `llm`: the optional LLM structuring stage, between the parsers (`recipe`, `receipt`) and `result`.
///
/// - `mode: off` (the default): passes through at once; nothing is sent anywhere.
/// - `mode: fallback`: a recipe parsed with confidence below `llm.confidence_threshold` (or a document routed
///   as a recipe where none was found), or a receipt parsed below it or whose totals do not add up, goes to the
///   model; the parser's present fields win and the model fills the gaps.
/// - `mode: always`: every recipe and receipt goes to the model and its present fields win.
///
/// Each recipe is sent as its own lines (`recipe-v1`), a receipt as all of its lines (`receipt-v1`), keyed
/// `L1`…`Ln`. ``LLMStructurer`` does the rest: cache, provider chain, schema validation with re-asks, grounding (an
/// item that no cited line holds is dropped, never invented into the output) and cost. The merged fields replace
/// the parser's in `result`, and the output says which provider and model produced which field.
///
/// A document whose answers never validate, or for which every provider failed, fails with the reason (the
/// batch goes on). When the batch's token budget is spent the remaining documents keep their parser result and
/// say so.
public struct LLMStage: Stage {
    public let name = StandardStage.llm.name
    /// Its requests have their own timeouts and retries; `limits.stage_seconds` does not apply.
    public let runsUnderDeadline = false
    public let version: String
    public let outputSchema: String? = nil
    /// The batch's LLM service (chain, cache, budget); nil in mode off.
    public let service: LLMStructurer?
    private let settings: LLMConfig

    /// The prompts this build uses, parsed (`PromptLibrary`): `StageDeclaration.llmPrompts`, which `larder` derives
    /// from the same embedded files without parsing them, must equal it (the worker checks before it starts).
    public static var promptVersions: String {
        get throws {
            try [PromptLibrary.recipe, PromptLibrary.receipt].map(\.stageVersion).joined(separator: ",")
        }
    }

    /// Makes the stage for a batch. In mode off nothing is opened or configured.
    /// - Parameters:
    ///   - config: the pipeline configuration (its `llm` section and cache path).
    ///   - alreadySpent: tokens this batch spent before this process started (a restarted worker), counted
    ///     against the budget.
    ///   - transport/sleeper/environment/log: see ``LLMStructurer``; tests pass a fault server's transport settings.
    public init(
        config: PipelineConfig, alreadySpent: Int = 0, transport: any HTTPTransport = CurlTransport(),
        environment: @escaping @Sendable (String) -> String? = { ProcessInfo.processInfo.environment[$0] },
        log: LLMLogHandler? = nil
    ) throws {
        settings = config.llm
        version = StandardStage.llm.declaration(for: config).version
        guard config.llm.mode != .off else {
            service = nil
            return
        }
        let cache: SQLiteLLMCache
        do {
            cache = try SQLiteLLMCache(path: config.llmCachePath)
        } catch {
            throw LarderError(
                .configuration, "cannot open the LLM answer cache: \(error)",
                hint: "check llm.cache in pipeline.yml and that its folder is writable", path: config.llmCachePath)
        }
        service = LLMStructurer(config: config.llm, cache: cache, transport: transport, environment: environment, log: log)
        if alreadySpent > 0 { service?.budget.spend(TokenUsage(input: alreadySpent, output: 0)) }
    }

    public func run(_ input: StageInput) throws -> StageOutput {
        guard let service else { return try StageOutput(LLMStageOutput(mode: .off, skipped: "mode off")) }
        let routed = try input.output(of: "route", as: RouteOutput.self)
        var output = LLMStageOutput(mode: settings.mode)
        // A recipe app's export already has its structure (the app's fields): nothing for a model to guess.
        if let app = input.outputIfPresent(of: "detect", as: DetectOutput.self)?.appFormat {
            output.skipped = "a recipe-app export (\(app)): its structure is the app's"
            return try StageOutput(output)
        }
        do {
            switch routed.route {
            case .recipe: try structureRecipes(input, service: service, into: &output)
            case .receipt: try structureReceipt(input, service: service, into: &output)
            case .unknown: output.skipped = "routed as unknown: nothing to structure"
            }
        } catch let error as LLMError {
            if error.code == .budgetExhausted {
                output.budgetReached = true
                output.skipped = "the batch's token budget (llm.batch_token_budget) is spent"
                output.recipes = nil
                output.receipt = nil
                output.pantry = nil
                return try StageOutput(output)
            }
            // The chain already retried and fell through every provider: fail the document now (the batch goes on).
            let causes = error.causes.map { cause in (cause.provider.map { "\($0): " } ?? "") + cause.message }
            throw LarderError(
                .service, "LLM structuring failed: \(([error.message] + causes).joined(separator: "; "))",
                hint: (error.hint.map { $0 + "; then " } ?? "") + "run `larder retry` (or set llm.mode: off to keep the parser's result)",
                path: input.document.path)
        }
        return try StageOutput(output)
    }

    // MARK: Recipes

    private func structureRecipes(_ input: StageInput, service: LLMStructurer, into output: inout LLMStageOutput) throws {
        let parsed = try RecipeStage.output(from: input).recipes
        let extracted = try DocumentText.readable(input)  // a scanned page: its OCR lines, as `recipe` read them
        let lines = RecipeStage.lines(of: extracted)
        guard !lines.isEmpty else {
            output.skipped = "no text to structure"
            return
        }
        var recipes = parsed
        // Each parsed recipe with its own lines; a document where the parser found none, as a whole.
        var targets: [(index: Int?, lines: ArraySlice<SourceLine>)] = []
        if parsed.isEmpty {
            if settings.shouldStructure(confidence: 0) { targets.append((nil, lines[...])) }
        } else {
            for (index, recipe) in parsed.enumerated() where settings.shouldStructure(confidence: recipe.confidence) {
                targets.append((index, Self.span(of: recipe, in: lines)))
            }
        }
        guard !targets.isEmpty else {
            output.skipped = "parsed with confidence at or above \(settings.confidenceThreshold)"
            return
        }
        let prompt = try PromptLibrary.recipe
        let file = URL(fileURLWithPath: input.document.path).lastPathComponent
        for target in targets.prefix(20) {
            let span = Array(target.lines)
            let keyed = KeyedLines(span.map(\.text))
            let base = target.index.map { parsed[$0] }
            let request = StructuringRequest(
                documentID: "\(input.document.id) (\(file))", prompt: prompt, lines: keyed,
                deterministic: base.map { Self.llmShape(of: $0, lines: span) })
            let result = try service.structure(request)
            let recipe = Self.recipe(
                from: result, base: base, lines: span, source: RecipeSourceInfo(
                    file: file, sha256: input.document.sha256, pages: Array(Set(span.map(\.page))).sorted(),
                    format: extracted.format.rawValue))
            let slot: Int
            if let index = target.index {
                recipes[index] = recipe
                slot = index
            } else {
                recipes.append(recipe)
                slot = recipes.count - 1
            }
            output.answers.append(Self.answer(result, target: "recipes/\(slot)", prompt: prompt))
        }
        output.recipes = recipes
    }

    /// The lines a parsed recipe spans (from its first to its last cited line).
    static func span(of recipe: Recipe, in lines: [SourceLine]) -> ArraySlice<SourceLine> {
        var cited: [Provenance] = Array(recipe.provenance.values)
        cited += recipe.ingredientGroups.flatMap { $0.ingredients.map(\.provenance) }
        cited += recipe.steps.map(\.provenance)
        func position(_ page: Int, _ line: Int) -> Int? { lines.firstIndex { $0.page == page && $0.number == line } }
        let starts = cited.compactMap { position($0.page, $0.lineStart) }
        let ends = cited.compactMap { position($0.page, $0.lineEnd) }
        guard let first = starts.min(), let last = ends.max(), first <= last else { return lines[...] }
        return lines[first...last]
    }

    /// A parsed recipe in the `llm-recipe` shape, keyed to `lines`, for merging.
    static func llmShape(of recipe: Recipe, lines: [SourceLine]) -> JSONValue {
        func key(_ page: Int, _ line: Int) -> String? {
            lines.firstIndex { $0.page == page && $0.number == line }.map(KeyedLines.key)
        }
        let ingredients: [JSONValue] = recipe.ingredientGroups.flatMap(\.ingredients).compactMap { ingredient in
            guard let line = key(ingredient.provenance.page, ingredient.provenance.lineStart) else { return nil }
            return .object([
                "line": .string(line), "text": .string(ingredient.text),
                "quantity": ingredient.quantity.map { .double($0.value) } ?? .null,
                "unit": ingredient.unit.map(JSONValue.string) ?? .null,
                "name": .string(ingredient.name.isEmpty ? ingredient.text : ingredient.name),
            ])
        }
        let steps: [JSONValue] = recipe.steps.compactMap { step in
            let keys = (step.provenance.lineStart...step.provenance.lineEnd).compactMap { key(step.provenance.page, $0) }
            return keys.isEmpty ? nil : .object(["lines": .array(keys.map(JSONValue.string)), "text": .string(step.text)])
        }
        return .object([
            "title": .string(recipe.title), "ingredients": .array(ingredients), "steps": .array(steps),
        ])
    }

    private static let allergens = AllergenTagger()

    /// The merged answer as a Larder recipe: fields the model supplied replace the parser's; the rest of the
    /// parsed recipe (yields, times, notes…) is kept.
    static func recipe(from result: StructuringResult, base: Recipe?, lines: [SourceLine], source: RecipeSourceInfo)
        -> Recipe
    {
        var recipe = base ?? Recipe(title: "", source: source, confidence: 0)
        let merged = result.output
        func line(_ key: String?) -> SourceLine? {
            guard let n = key.flatMap(KeyedLines.number), n <= lines.count else { return nil }
            return lines[n - 1]
        }
        if result.provenance["title"]?.isLLM == true, let title = merged["title"]?.stringValue {
            recipe.title = title
        }
        if recipe.title.isEmpty { recipe.title = "Untitled" }
        if result.provenance["ingredients"]?.isLLM == true, let items = merged["ingredients"]?.arrayValue {
            let ingredients: [RecipeIngredient] = items.compactMap { item in
                guard let cited = line(item["line"]?.stringValue) else { return nil }
                let name = item["name"]?.stringValue ?? cited.text
                var ingredient = RecipeIngredient(
                    text: cited.text, quantity: item["quantity"]?.doubleValue.map { RecipeQuantity(value: $0) },
                    unit: item["unit"]?.stringValue, name: name, confidence: 0.5,
                    provenance: Provenance(page: cited.page, lineStart: cited.number, lineEnd: cited.number))
                ingredient.allergens = allergens.tags(for: name).map {
                    IngredientAllergen(allergen: $0.allergen.rawValue, keyword: $0.keyword)
                }
                return ingredient
            }
            recipe.ingredientGroups = [IngredientGroup(name: nil, ingredients: ingredients)]
            // The parser's step → ingredient links pointed into its own groups.
            for index in recipe.steps.indices { recipe.steps[index].ingredients = [] }
        }
        if result.provenance["steps"]?.isLLM == true, let items = merged["steps"]?.arrayValue {
            recipe.steps = items.enumerated().compactMap { index, item in
                let cited = (item["lines"]?.arrayValue ?? []).compactMap { line($0.stringValue) }
                guard let first = cited.first, let text = item["text"]?.stringValue else { return nil }
                let samePage = cited.filter { $0.page == first.page }.map(\.number)
                return RecipeStep(
                    number: index + 1, text: text,
                    provenance: Provenance(page: first.page, lineStart: samePage.min()!, lineEnd: samePage.max()!))
            }
            for index in recipe.steps.indices { recipe.steps[index].number = index + 1 }
        }
        return recipe
    }

    // MARK: Receipts

    private func structureReceipt(_ input: StageInput, service: LLMStructurer, into output: inout LLMStageOutput) throws {
        let parsed = try ReceiptStage.output(from: input)
        guard var receipt = parsed.receipt, !receipt.lines.isEmpty else {
            output.skipped = "no receipt lines to structure"
            return
        }
        let confidence = receipt.check.addsUp == false ? 0 : receipt.confidence
        guard settings.shouldStructure(confidence: confidence) else {
            output.skipped = "parsed with confidence at or above \(settings.confidenceThreshold)"
            return
        }
        // Receipt lines are numbered from 1 in order, so line n is key Ln.
        var texts = Array(repeating: "", count: receipt.lines.map(\.number).max() ?? 0)
        for line in receipt.lines where line.number >= 1 { texts[line.number - 1] = line.text }
        let keyed = KeyedLines(texts)
        let prompt = try PromptLibrary.receipt
        let file = URL(fileURLWithPath: input.document.path).lastPathComponent
        let result = try service.structure(
            StructuringRequest(
                documentID: "\(input.document.id) (\(file))", prompt: prompt, lines: keyed,
                deterministic: Self.llmShape(of: receipt)))
        let merged = result.output
        let fromLLM = { (key: String) in result.provenance[key]?.isLLM == true }
        if fromLLM("store"), let store = merged["store"]?.stringValue { receipt.store.name = store }
        if fromLLM("date"), let date = merged["date"]?.stringValue, Self.isISODate(date) { receipt.date = date }
        if fromLLM("total"), let total = merged["total"].flatMap(Self.money) { receipt.totals.total = total }
        var pantry: [PantryItem]? = nil
        if fromLLM("items"), let items = merged["items"]?.arrayValue {
            receipt.items = items.compactMap { item -> Receipt.Item? in
                guard let n = item["line"]?.stringValue.flatMap(KeyedLines.number),
                    let description = item["description"]?.stringValue
                else { return nil }
                return Receipt.Item(
                    description: description, quantity: nil, unit: nil, unitPrice: nil,
                    total: item["price"].flatMap(Self.money) ?? 0, discounts: [], line: n)
            }
            pantry = try Self.pantry(of: receipt, receiptID: input.document.sha256, blocklist: input.config.blocklist)
        }
        if fromLLM("total") || fromLLM("items") {
            // The arithmetic check again, on the merged items and total; its review reason follows it.
            let computed = receipt.items.reduce(Decimal(0)) { $0 + $1.total + $1.discounts.reduce(0) { $0 + $1.amount } }
                + (receipt.totals.tax ?? 0)
            receipt.check.computed = computed.rounded(places: 2)
            receipt.check.printed = receipt.totals.total
            receipt.check.addsUp = receipt.totals.total.map { abs($0 - computed) <= Decimal(string: "0.02")! }
            let hasItems = !receipt.items.isEmpty
            receipt.reviewReasons.removeAll { $0.hasPrefix("total mismatch") || (hasItems && $0.hasPrefix("no items")) }
            if receipt.check.addsUp == false, let printed = receipt.totals.total {
                let amounts = [receipt.check.computed ?? 0, printed].map { NSDecimalNumber(decimal: $0).doubleValue }
                receipt.reviewReasons.append(
                    String(format: "total mismatch: items, discounts and tax come to %.2f, the receipt says %.2f (after the LLM stage)",
                           amounts[0], amounts[1]))
            }
        }
        output.receipt = receipt
        output.pantry = pantry
        output.answers.append(Self.answer(result, target: "receipt", prompt: prompt))
    }

    /// A parsed receipt in the `llm-receipt` shape, keyed by line number.
    static func llmShape(of receipt: Receipt) -> JSONValue {
        .object([
            "store": receipt.store.name.map(JSONValue.string) ?? .null,
            "date": receipt.date.map(JSONValue.string) ?? .null,
            "total": receipt.totals.total.map(Self.number) ?? .null,
            "items": .array(
                receipt.items.map {
                    .object([
                        "line": .string("L\($0.line)"), "description": .string($0.description), "price": Self.number($0.total),
                    ])
                }),
        ])
    }

    /// A model's number as money: exactly the digits it wrote, to the cent (nil for anything but a number).
    static func money(_ value: JSONValue) -> Decimal? {
        guard let number = value.numberValue else { return nil }
        return Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX"))?.rounded(places: 2)
    }

    /// Money as JSON: the decimal's own digits.
    static func number(_ value: Decimal) -> JSONValue {
        JSONNumber(literal: "\(value)").map(JSONValue.number) ?? .null
    }

    static func isISODate(_ text: String) -> Bool {
        text.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil
    }

    /// Pantry items for a receipt whose items came from the model: normalised, blocked and tagged like the
    /// parser's.
    static func pantry(of receipt: Receipt, receiptID: String, blocklist: IngredientBlocklist) throws -> [PantryItem] {
        let normalizer = try ReceiptStage.normalizer(blocklist: blocklist)
        let tagger = Self.allergens
        return receipt.items.compactMap { item in
            let match = normalizer.normalize(item.description)
            guard match.status != .blocked else { return nil }
            return PantryItem(
                ingredient: match.baseIngredient, product: item.description, quantity: nil, unit: nil,
                price: item.total, purchaseDate: receipt.date, source: PantryItem.Source(receipt: receiptID, line: item.line),
                allergens: tagger.tags(for: match.baseIngredient ?? item.description),
                confidence: match.confidence * 0.5, evidence: match.evidence + ["item read by the LLM stage"],
                needsReview: match.status != .matched)
        }
    }

    // MARK: Provenance

    static func answer(_ result: StructuringResult, target: String, prompt: Prompt) -> LLMStageOutput.Answer {
        LLMStageOutput.Answer(
            target: target, prompt: prompt.version, provider: result.provider, model: result.model, cached: result.cached,
            requests: result.requests, reasks: result.reasks, usage: result.usage, cost: result.cost,
            fields: result.provenance.mapValues { $0.isLLM ? "llm" : "parser" }, rejected: result.rejected.map(\.description))
    }
}

extension FieldSource {
    fileprivate var isLLM: Bool { origin == "llm" }
}
