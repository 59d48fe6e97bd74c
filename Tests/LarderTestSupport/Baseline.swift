import Foundation

/// The figures `make measure` recorded in `benchmarks/baseline.json` (every evaluation on the user's path): the
/// accuracy-floor tests take their floors from here, a floor being the baseline figure minus a stated margin, so a
/// re-measured baseline moves the floors with it and no test keeps a number of its own.
public enum Baseline {
    struct File: Decodable {
        struct Figure: Decodable {
            var key: String
            var metric: String
            var value: Double
        }
        var figures: [Figure]
    }

    static let figures: [String: Double] = {
        guard let data = FileManager.default.contents(atPath: Repository.path("benchmarks/baseline.json")),
            let file = try? JSONDecoder().decode(File.self, from: data)
        else { return [:] }
        return Dictionary(file.figures.map { ("\($0.key)/\($0.metric)", $0.value) }, uniquingKeysWith: { a, _ in a })
    }()

    /// The figure of evaluation `key` (`pages`, `pdfs`, `receipts-sroie`…) for `metric` (as
    /// `scripts/bench/figures.py` names it: "title", "ingredient lines F1"…), or nil when the baseline lacks it.
    public static func figure(_ key: String, _ metric: String) -> Double? { figures["\(key)/\(metric)"] }

    /// The floor for a figure: the baseline's value minus `margin` (the noise a test tolerates before calling a
    /// change a regression). A figure missing from the baseline gives 1.0 + margin, which no score reaches: the
    /// test fails and names what to measure.
    public static func floor(_ key: String, _ metric: String, margin: Double) -> Double {
        (figure(key, metric) ?? (1 + 2 * margin)) - margin
    }
}
