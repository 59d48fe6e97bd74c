import Foundation
import LarderTestSupport
import Testing

/// The documentation follows the code: `docs/reference/cli.md` is what `scripts/dev/cli-reference.py` renders from
/// the built `larder`'s command tree today (regenerate with `make cli-reference` after `swift build`), and every
/// relative link in the repository's Markdown files resolves (`scripts/dev/check-links.py`).
@Suite("documentation")
struct DocumentationTests {
    @Test(.integration) func cliReferenceIsCurrent() throws {
        let larder = try TestSupport.larderExecutable
        let run = try TestSupport.shell(
            "python3 '\(Repository.path("scripts/dev/cli-reference.py"))' --check --larder '\(larder)'")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test func everyRelativeLinkResolves() throws {
        let run = try TestSupport.shell("python3 '\(Repository.path("scripts/dev/check-links.py"))'")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }
}
