import Foundation
import LarderReceipts

/// The pantry: every food item bought on the receipts Larder has read, from each receipt's exportable result (the
/// accepted version, else the latest valid one; never a rejected or invalid one), sorted by ingredient.
public struct Pantry: Sendable {
    public let store: any CheckpointStore

    public init(store: any CheckpointStore) {
        self.store = store
    }

    public func items() throws -> [PantryItem] {
        var items: [PantryItem] = []
        let exporter = Exporter(store: store)
        for state in DocumentState.allCases {
            try store.forEachDocument(in: state) { document in
                guard case .version(let version) = try exporter.exportable(document.id) else { return }
                let result = try JSONDecoder().decode(DocumentResult.self, from: Data(version.json.utf8))
                items += result.pantry
            }
        }
        return items.sorted { ($0.ingredient, $0.purchaseDate ?? "", $0.source.receipt) < ($1.ingredient, $1.purchaseDate ?? "", $1.source.receipt) }
    }

    /// CSV with a header row: ingredient, product, quantity, unit, price, purchase_date, receipt, line, allergens,
    /// confidence, needs_review.
    public static func csv(_ items: [PantryItem]) -> String {
        func field(_ value: String?) -> String {
            guard let value else { return "" }
            return value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
                ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
        }
        func number(_ value: Decimal?) -> String { value.map { "\($0)" } ?? "" }
        var lines = ["ingredient,product,quantity,unit,price,purchase_date,receipt,line,allergens,confidence,needs_review"]
        for item in items {
            lines.append(
                [
                    field(item.ingredient), field(item.product), number(item.quantity), field(item.unit),
                    number(item.price), field(item.purchaseDate), field(item.source.receipt), String(item.source.line),
                    field(item.allergens.map(\.allergen.rawValue).joined(separator: ";")), String(format: "%.2f", item.confidence),
                    item.needsReview ? "true" : "false",
                ].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
