import Foundation
import Testing

/// The test tiers. `make test` runs every test. `make unit` sets `LARDER_TEST_TIER=unit`, which skips — visibly,
/// with the reason — every test or suite marked with one of the traits below, leaving the fast unit tests (no
/// `larder`/`larder-worker` process, no server, no OCR, nothing from `../shared/data`).
///
/// Swift Testing tags would be the natural marks, but `swift test` in Swift 6.3 cannot filter by tag (`--skip tag:…`
/// arrived after it), so the marks are condition traits: `@Test(.integration)`, `@Suite(.slow)`,
/// `@Test(.sharedData("recipes-pdf"))`. Give a test every mark that applies.
public enum TestTier {
    /// True under `make unit` (`LARDER_TEST_TIER=unit`).
    public static let unitOnly = ProcessInfo.processInfo.environment["LARDER_TEST_TIER"] == "unit"
}

extension Trait where Self == ConditionTrait {
    /// Starts a process (`larder`, `larder-worker`, the fault server, the local model server, a tool whose answer the
    /// test compares with) or runs OCR. Skipped by `make unit`. (One short process stays in the unit tier on purpose:
    /// `generatedFilesAreUpToDate` runs `scripts/embed-files.py --check`.)
    public static var integration: Self {
        .enabled(if: !TestTier.unitOnly, "integration test (processes or OCR): `make unit` skips it")
    }

    /// Takes more than a few seconds in a debug build. Skipped by `make unit`.
    public static var slow: Self {
        .enabled(if: !TestTier.unitOnly, "slow test: `make unit` skips it")
    }

    /// Reads `../shared/data/<name>` for each name (a folder or a file). Skipped, with the missing names, when
    /// any is absent; skipped by `make unit`.
    public static func sharedData(_ names: String...) -> Self {
        let missing = names.filter { !SharedData.has($0) }
        if !missing.isEmpty {
            return .enabled(if: false, SharedData.missing(missing.joined(separator: ", ")))
        }
        return .enabled(if: !TestTier.unitOnly, "reads ../shared/data: `make unit` skips it")
    }
}
