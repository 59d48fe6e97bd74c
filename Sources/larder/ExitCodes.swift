import Foundation
import ArgumentParser
import LarderCore

/// Every exit code `larder` uses, in one place.
enum LarderExit {
    /// Everything asked for was done.
    static let success = ExitCode(0)
    /// The batch finished, but some inputs failed, were quarantined, or could not be read (see the summary).
    static let partial = ExitCode(1)
    /// A bad option or `pipeline.yml` (ArgumentParser's own usage errors exit 64).
    static let configuration = ExitCode(2)
    /// The checkpoint database could not be opened or written.
    static let database = ExitCode(3)
    /// Nothing matched (e.g. `larder show` with an unknown document).
    static let notFound = ExitCode(4)
    /// Something Larder did not expect; a bug worth reporting.
    static let internalError = ExitCode(70)
    /// Stopped by SIGINT/SIGTERM; `larder resume` finishes the batch.
    static let interrupted = ExitCode(130)

    static func code(for error: LarderError) -> ExitCode {
        switch error.kind {
        case .configuration: configuration
        case .database: database
        case .interrupted: interrupted
        case .badInput, .overLimit, .unreadable, .transient, .service, .crashed: partial
        }
    }
}

/// Runs a command body, printing a ``LarderError`` as one clear line and exiting with its code.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as LarderError {
        printError("larder: error: \(error)")
        throw LarderExit.code(for: error)
    } catch let error as ExitCode {
        throw error
    } catch {
        printError("larder: internal error: \(error)")
        throw LarderExit.internalError
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((TerminalText.safe(text) + "\n").utf8))
}
