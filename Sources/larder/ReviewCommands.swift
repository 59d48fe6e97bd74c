import ArgumentParser
import Foundation
import LarderCore
import LarderJSON

struct Review: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Documents that need a person: list, compare versions, accept, reject, edit.",
        discussion: """
            Every version of a result is kept. An accepted human edit is never overwritten by a later reparse; a \
            reparse that disagrees with it comes back to this queue as a diff to review.
            """,
        subcommands: [ReviewList.self, ReviewShow.self, ReviewEdit.self, ReviewAccept.self, ReviewReject.self],
        defaultSubcommand: ReviewList.self)
}

/// Opens the database and the schemas for a review command.
private func reviewer(_ options: CommonOptions, readOnly: Bool = false) throws -> (any CheckpointStore, Reviewer) {
    let config = try options.loadConfig()
    let store = try readOnly ? options.openReadOnly(config) : options.openStore(config)
    return (store, Reviewer(store: store, schemas: try SchemaCatalog.embedded.get()))
}

private func documentID(_ reference: String, in store: any CheckpointStore) throws -> Int64 {
    try findDocument(reference, in: store).id
}

struct ReviewList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the documents that need a person, most urgent first, with the reason.")

    @OptionGroup var options: CommonOptions

    func run() throws {
        try reportingErrors {
            let (_, reviewer) = try reviewer(options, readOnly: true)
            let items = try reviewer.queue()
            if options.json { return try printJSON(items) }
            if items.isEmpty { print("nothing to review") }
            for item in items {
                print("doc \(item.documentID) [urgency \(item.urgency)] \(LarderError.displayPath(item.path))")
                for reason in item.reasons { print("  \(reason.code.rawValue): \(reason.message)") }
            }
        }
    }
}

struct ReviewShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Field-level diff: the accepted version against the machine's, or the previous output against a reparse.",
        discussion: "With --json, prints the RFC 6902 JSON Patch that turns the older version into the newer.")

    @OptionGroup var options: CommonOptions

    @Argument(help: "Document id, SHA-256 prefix or path.")
    var document: String

    func run() throws {
        try reportingErrors {
            let (store, reviewer) = try reviewer(options, readOnly: true)
            let id = try documentID(document, in: store)
            let (from, to) = try reviewer.comparison(for: id)
            guard let from else {
                if options.json { return print("[]") }
                print("doc \(id): only one version (\(to.number), \(to.origin.rawValue)); nothing to compare. The result:")
                print(try JSONValue(parsing: Data(to.json.utf8)).serialized(options: [.prettyPrinted, .sortedKeys]))
                for violation in to.violations { print("schema: \(violation)") }
                return
            }
            let diff = try ResultDiff(fromJSON: from.json, toJSON: to.json)
            if options.json { return print(diff.patch.serialized(options: [.prettyPrinted])) }
            print("doc \(id): version \(from.number) (\(from.origin.rawValue)) → version \(to.number) (\(to.origin.rawValue))")
            let lines = diff.lines(colour: isatty(STDOUT_FILENO) != 0)
            print(lines.isEmpty ? "  no differences" : lines.map { "  " + $0 }.joined(separator: "\n"))
            for violation in to.violations { print("schema: \(violation)") }
        }
    }
}

struct ReviewEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a result in $EDITOR (or apply --patch FILE), validate it, and save it as the accepted version.",
        discussion: "Nothing is saved if the result is not valid JSON or breaks the schema; an editor session's file is kept so no typing is lost.")

    @OptionGroup var options: CommonOptions

    @Option(help: "Apply this RFC 6902 JSON Patch instead of opening an editor.")
    var patch: String?

    @Argument(help: "Document id, SHA-256 prefix or path.")
    var document: String

    func run() throws {
        try reportingErrors {
            let (store, reviewer) = try reviewer(options)
            let id = try documentID(document, in: store)
            let number: Int
            if let patch {
                guard let text = try? String(contentsOfFile: patch, encoding: .utf8) else {
                    throw LarderError(.badInput, "cannot read the patch file", hint: "check the path", path: patch)
                }
                number = try reviewer.applyPatch(documentID: id, patch: text, source: patch)
            } else {
                let current = try reviewer.currentResult(for: id)
                let file = NSTemporaryDirectory() + "larder-review-\(id)-\(UUID().uuidString.prefix(6)).json"
                let pretty = try JSONValue(parsing: Data(current.json.utf8)).serialized(options: [.prettyPrinted, .sortedKeys])
                try SafeFile.write(Data((pretty + "\n").utf8), to: file, what: "the file to edit")
                let editor = ProcessInfo.processInfo.environment["VISUAL"] ?? ProcessInfo.processInfo.environment["EDITOR"] ?? "vi"
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "\(editor) \"$1\"", "larder-editor", file]
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    throw LarderError(
                        .badInput, "the editor exited with status \(process.terminationStatus); nothing was saved",
                        hint: "your file is kept", path: file)
                }
                let edited = try String(contentsOfFile: file, encoding: .utf8)
                if edited == pretty + "\n" {
                    try? FileManager.default.removeItem(atPath: file)
                    print("no changes")
                    return
                }
                do {
                    number = try reviewer.saveEdit(documentID: id, json: edited, source: file, note: "edited with \(editor)")
                } catch var error as LarderError {
                    error.hint = (error.hint ?? "") + "; your edit is kept in \(file): fix it and use --patch, or edit again"
                    throw error
                }
                try? FileManager.default.removeItem(atPath: file)
            }
            print("saved and accepted version \(number) of doc \(id)")
        }
    }
}

struct ReviewAccept: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept", abstract: "Accept the latest machine version as it is.")

    @OptionGroup var options: CommonOptions

    @Argument(help: "Document id, SHA-256 prefix or path.")
    var document: String

    func run() throws {
        try reportingErrors {
            let (store, reviewer) = try reviewer(options)
            let id = try documentID(document, in: store)
            print("accepted version \(try reviewer.accept(documentID: id)) of doc \(id)")
        }
    }
}

struct ReviewReject: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reject", abstract: "Reject the latest machine version; it will not be exported.")

    @OptionGroup var options: CommonOptions

    @Option(help: "Why, for the record.")
    var reason: String

    @Argument(help: "Document id, SHA-256 prefix or path.")
    var document: String

    func run() throws {
        try reportingErrors {
            let (store, reviewer) = try reviewer(options)
            let id = try documentID(document, in: store)
            try reviewer.reject(documentID: id, reason: reason)
            print("rejected doc \(id)")
        }
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Regression run: compare each input's result with its golden JSON; exit 1 on any drift.",
        discussion: """
            Runs the pipeline over the inputs in a scratch database. Goldens are GOLDEN/<file name>.json and are \
            compared semantically (key order and number formatting don't matter). --update rewrites them.
            """)

    @OptionGroup var options: CommonOptions

    @Option(help: "Folder of golden results.")
    var golden: String

    @Flag(help: "Write the current results as the goldens.")
    var update = false

    @Argument(help: "Files and folders to run.")
    var inputs: [String]

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()  // its database is not used: the check runs in a scratch one
            let check = GoldenCheck(goldenDirectory: golden, config: config, configFile: options.config, update: update)
            let outcomes = try check.run(inputs: inputs, logger: options.makeLogger())
            if options.json {
                try printJSON(outcomes)
            } else {
                for outcome in outcomes {
                    print("\(outcome.status.rawValue): \(outcome.file)\(outcome.error.map { " — \($0)" } ?? "")")
                    for change in outcome.changes { print("    \(change)") }
                }
                let drifted = outcomes.filter { $0.status != .match && $0.status != .updated }.count
                print("\(outcomes.count) inputs, \(drifted) with drift, missing golden or failure")
            }
            if !GoldenCheck.passed(outcomes) { throw LarderExit.partial }
        }
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate JSON files against one of Larder's schemas or a schema file (JSON Schema 2020-12).")

    @OptionGroup var options: CommonOptions

    @Option(help: "A schema in schemas/ (e.g. result.schema.json or recipe).")
    var schema: String?

    @Option(help: "A schema file of your own.")
    var schemaFile: String?

    @Flag(help: "Treat `format` (date, date-time, time, email, uri, uuid…) as an assertion, not an annotation.")
    var formatAssertion = false

    @Argument(help: "JSON files to validate.")
    var files: [String]

    func run() throws {
        try reportingErrors {
            let compiled: JSONSchema
            if let schemaFile {
                guard let data = FileManager.default.contents(atPath: schemaFile) else {
                    throw LarderError(.configuration, "cannot read the schema file", path: schemaFile)
                }
                let value: JSONValue
                do { value = try JSONValue(parsing: data) } catch let error as JSONParseError {
                    throw LarderError(.configuration, "the schema is not valid JSON: \(error.message)", path: schemaFile, line: error.line)
                }
                compiled = try SchemaCatalog.compile(value, name: schemaFile, formatAssertion: formatAssertion)
            } else {
                let catalog = try SchemaCatalog.embedded.get()
                var name = schema ?? "result.schema.json"
                if !name.hasSuffix(".json") { name += ".schema.json" }
                guard catalog.names.contains(name) else {
                    throw LarderError(.configuration, "no schema named '\(name)'", hint: "known: \(catalog.names.joined(separator: ", "))")
                }
                compiled = try SchemaCatalog.compile(
                    try JSONValue(parsing: Data(catalog.text(of: name).utf8)), name: name, registry: catalog.registry,
                    formatAssertion: formatAssertion)
            }
            var failures = 0
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    printError("\(file): cannot read the file")
                    failures += 1
                    continue
                }
                do {
                    let errors = compiled.validate(try JSONValue(parsing: data))
                    if errors.isEmpty {
                        if !options.json { print("\(file): valid") }
                    } else {
                        failures += 1
                        for error in errors { print("\(file): \(SchemaViolation(error))") }
                    }
                } catch let error as JSONParseError {
                    failures += 1
                    print("\(file):\(error.line):\(error.column): not valid JSON: \(error.message)")
                }
            }
            if failures > 0 { throw LarderExit.partial }
        }
    }
}
