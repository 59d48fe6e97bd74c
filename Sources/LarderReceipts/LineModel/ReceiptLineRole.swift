import Foundation

/// What one printed line of a receipt is, as the receipt line model (``ReceiptLineModel``) predicts it.
public enum ReceiptLineRole: String, CaseIterable, Codable, Sendable {
    /// The shop's name (often the logo line).
    case store
    /// Street, town, phone, tax number: the header lines under the name.
    case address
    /// The purchase date (a line holding date and time is a date line).
    case date
    /// A time of day on a line of its own.
    case time
    /// A purchased line: a name and its price (or a name whose price follows on the next line).
    case item
    /// The detail under or over an item: quantity × unit price, a weight, a modifier.
    case itemDetail
    /// A discount, coupon or voucher.
    case discount
    /// The subtotal.
    case subtotal
    /// Tax, service or another charge added to the subtotal.
    case tax
    /// The amount due.
    case total
    /// What was paid: cash, card, voucher.
    case tender
    /// The change given back.
    case change
    /// Anything else: thanks, barcodes, till numbers, tax tables.
    case other

    /// The roles in weight order.
    public static let ordered: [ReceiptLineRole] = allCases
    /// The number of roles.
    public static let count = ordered.count
    /// The role's index in ``ordered``.
    public var index: Int { Self.indexByRole[self]! }
    private static let indexByRole: [ReceiptLineRole: Int] = Dictionary(
        uniqueKeysWithValues: ordered.enumerated().map { ($0.element, $0.offset) })
}
