/// How many date misses a day/month swap of the label explains (issue 12): the receipts-photos labels read
/// ambiguous dates month-first, also on day-first papers (UK, Irish, Dutch, Malaysian …), while the parser reads
/// the order from the paper. The primary `date` score is unchanged; these figures stand beside it.
extension ReceiptEvaluation {
    /// Whether `predicted` is `label` with its day and month exchanged (both ISO `YYYY-MM-DD`, differing, the
    /// day 12 or less so that either reading is a valid date): the digits were read, the order disagrees.
    public static func isDayMonthSwap(predicted: String?, label: String?) -> Bool {
        guard let predicted, let label, predicted != label else { return false }
        let p = predicted.split(separator: "-"), l = label.split(separator: "-")
        guard p.count == 3, l.count == 3, let day = Int(l[2]), day <= 12 else { return false }
        return p[0] == l[0] && p[1] == l[2] && p[2] == l[1]
    }

    /// The report's date misses explained by a swap of the label's day and month (``isDayMonthSwap(predicted:label:)``)
    /// and the date score counting those as right ("either order"); nil when no receipt has a date label.
    static func dateSwapFigures(_ details: [ReceiptEvaluationDetail]) -> (swapped: Int, eitherOrder: Double)? {
        let dated = details.filter { $0.dateOK != nil }
        guard !dated.isEmpty else { return nil }
        let right = dated.filter { $0.dateOK == true }.count
        let swapped = dated.filter { $0.dateLabelSwapped == true }.count
        return (swapped, Double(right + swapped) / Double(dated.count))
    }
}
