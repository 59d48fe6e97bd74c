import ArgumentParser
import Foundation
import LarderCore
import LarderPostgres
import Logging

@main
struct Larder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "larder",
        abstract: "Bulk-ingest recipe documents and receipt photos into structured JSON.",
        discussion: """
            Documents are registered by the SHA-256 of their bytes and go through checkpointed stages \
            (detect → extract → ocr → route → recipe → receipt → result) kept in a SQLite database, so an \
            interrupted batch resumes where it stopped.
            """,
        version: LarderVersion.text + " (`larder-worker --version` lists the native libraries)",
        subcommands: [
            Ingest.self, Resume.self, Status.self, Show.self, Export.self, Retry.self, Review.self, Check.self, Eval.self,
            Train.self, PantryCommand.self, Cook.self, Search.self, Serve.self, WorkerCommand.self,
            Validate.self,
        ])

    /// ArgumentParser's own usage errors (an unknown option, a value that is not a number) exit 2, the code the
    /// README documents for a bad option, instead of its default 64.
    static func main() {
        // Past `ulimit -f` a write fails (EFBIG) with a message naming the file, instead of killing the process.
        SafeFile.ignoreFileSizeSignal()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                Foundation.exit(LarderExit.configuration.rawValue)
            }
            exit(withError: error)
        }
    }
}

enum LarderVersion {
    /// `larder-worker --version` names the native libraries it runs.
    static let text = "larder \(LarderInfo.version)"
}

/// Options every command takes.
struct CommonOptions: ParsableArguments {
    @Option(help: "Checkpoint database (default: `database` in pipeline.yml, else ./larder.sqlite).")
    var db: String?

    @Option(help: "Pipeline configuration (default: ./pipeline.yml if present, else built-in defaults).")
    var config: String?

    @Flag(help: "Print machine-readable JSON on standard output.")
    var json = false

    @Flag(name: .shortAndLong, help: "Log more detail on standard error.")
    var verbose = false

    func loadConfig() throws -> PipelineConfig {
        try ConfigLocator.resolve(configPath: config, databasePath: db)
    }

    /// Opens the checkpoint database read-only: for commands that only look (status, show, export, review lists,
    /// pantry), which then work on a database the user may only read.
    func openReadOnly(_ config: PipelineConfig) throws -> any ServiceStore {
        try StoreOpener.open(config, readOnly: true)
    }

    /// Opens the checkpoint store for writing: the SQLite file or the PostgreSQL database the options name.
    func openStore(_ config: PipelineConfig) throws -> any ServiceStore {
        try StoreOpener.open(config)
    }

    func makeLogger() -> Logger {
        var logger = Logger(label: "larder") { TerminalLogHandler(label: $0) }
        logger.logLevel = verbose ? .debug : .notice
        return logger
    }

    /// Arguments that give the worker process the same database and configuration.
    func forwarded(_ config: PipelineConfig) -> [String] {
        // A PostgreSQL URL may hold a password: it goes to the worker in its environment (LARDER_DB), never on a
        // command line that `ps` shows to every user.
        var arguments: [String] = []
        if StoreLocation.isPostgres(config.database) {
            setenv("LARDER_DB", config.database, 1)
            StoreOpener.nameWorkerForChildren()
        } else {
            arguments = ["--db", config.database]
        }
        if let path = self.config { arguments += ["--config", path] }
        if verbose { arguments.append("--verbose") }
        return arguments
    }
}

func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// The document an argument names (id, SHA-256 prefix or path), or exit 4 with a message.
func findDocument(_ reference: String, in store: any CheckpointStore) throws -> DocumentRecord {
    guard let document = try store.document(matching: reference) else {
        printError("larder: no document matches '\(reference)' (try an id or path from `larder status`)")
        throw LarderExit.notFound
    }
    return document
}
