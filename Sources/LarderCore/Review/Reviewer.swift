import Foundation
import LarderJSON

/// Everything a person does with results: the queue of documents that need a look, diffs between versions,
/// accepting, rejecting and editing. Every version is kept; an accepted human edit is never overwritten by a
/// later reparse — a reparse that disagrees shows up in the queue as a diff to review.
public struct Reviewer: Sendable {
    public let store: any CheckpointStore
    public let schemas: SchemaCatalog
    /// The schema results must satisfy.
    public var resultSchema = "result.schema.json"

    public init(store: any CheckpointStore, schemas: SchemaCatalog) {
        self.store = store
        self.schemas = schemas
    }

    /// A document waiting for a person, with why.
    public struct Item: Codable, Sendable, Equatable {
        public var documentID: Int64
        public var path: String
        /// The most urgent reason's urgency (higher first).
        public var urgency: Int
        public var reasons: [DocumentResult.Reason]
        public var latestVersion: Int
        public var acceptedVersion: Int?
    }

    /// Documents that need a person, most urgent first: results that break their schema, results the pipeline
    /// flagged (totals that don't add up, unknown products, low confidence, not recognised), and reparses that
    /// disagree with an accepted human edit. A decision about the latest version takes a document off the queue.
    public func queue() throws -> [Item] {
        var items: [Item] = []
        for candidate in try store.reviewCandidates() {
            let latest = candidate.latestMachine
            if candidate.state.decidedVersion == latest.number { continue }
            var reasons: [DocumentResult.Reason] = []
            if !latest.isValid {
                reasons.append(
                    .init(
                        code: .validation,
                        message: "breaks \(resultSchema): \(latest.violations.prefix(3).map(\.description).joined(separator: "; "))",
                        urgency: DocumentResult.Reason.Code.validation.urgency))
            }
            if let result = try? JSONDecoder().decode(DocumentResult.self, from: Data(latest.json.utf8)) {
                reasons += result.review.reasons
            }
            if candidate.acceptedIsHuman, let accepted = candidate.state.acceptedVersion, accepted < latest.number {
                reasons.append(
                    .init(
                        code: .reparseDisagrees,
                        message: "a reparse (version \(latest.number)) disagrees with your accepted edit (version \(accepted))",
                        urgency: DocumentResult.Reason.Code.reparseDisagrees.urgency))
            }
            guard !reasons.isEmpty else { continue }
            reasons.sort { $0.urgency > $1.urgency }
            items.append(
                Item(
                    documentID: candidate.documentID, path: candidate.path, urgency: reasons[0].urgency,
                    reasons: reasons, latestVersion: latest.number, acceptedVersion: candidate.state.acceptedVersion))
        }
        return items.sorted { ($0.urgency, -$0.documentID) > ($1.urgency, -$1.documentID) }
    }

    /// The two versions `review show` compares, older first: the accepted version and the latest machine version
    /// when they differ (after an edit: what the person changed; after a reparse: what the reparse changed), else
    /// the previous machine version and the latest.
    public func comparison(for documentID: Int64) throws -> (from: ResultVersion?, to: ResultVersion) {
        let versions = try store.resultVersions(of: documentID)
        guard let latest = versions.last(where: { $0.origin == .machine }) ?? versions.last else {
            throw LarderError(
                .configuration, "document \(documentID) has no result yet",
                hint: "run `larder resume` to finish its stages")
        }
        let state = try store.reviewState(of: documentID)
        if let acceptedNumber = state.acceptedVersion, let accepted = versions.first(where: { $0.number == acceptedNumber }),
            accepted.json != latest.json
        {
            return accepted.number < latest.number ? (accepted, latest) : (latest, accepted)
        }
        let previous = versions.last { $0.origin == .machine && $0.number < latest.number }
        return (previous, latest)
    }

    /// The JSON a person starts from when editing: the accepted version, else the latest machine version.
    public func currentResult(for documentID: Int64) throws -> ResultVersion {
        let versions = try store.resultVersions(of: documentID)
        let state = try store.reviewState(of: documentID)
        if let number = state.acceptedVersion, let accepted = versions.first(where: { $0.number == number }) {
            return accepted
        }
        guard let latest = versions.last else {
            throw LarderError(
                .configuration, "document \(documentID) has no result yet",
                hint: "run `larder resume` to finish its stages")
        }
        return latest
    }

    /// Accepts the latest machine version. An invalid result cannot be accepted: fix it with `review edit`.
    public func accept(documentID: Int64) throws -> Int {
        let versions = try store.resultVersions(of: documentID)
        guard let latest = versions.last(where: { $0.origin == .machine }) else {
            throw LarderError(.configuration, "document \(documentID) has no result yet", hint: "run `larder resume`")
        }
        guard latest.isValid else {
            throw LarderError(
                .badInput,
                "version \(latest.number) breaks \(resultSchema) (\(latest.violations.first!)); it cannot be accepted",
                hint: "fix it with `larder review edit \(documentID)`")
        }
        try store.decide(documentID: documentID, decision: .accepted, acceptedVersion: latest.number, reason: nil)
        return latest.number
    }

    public func reject(documentID: Int64, reason: String) throws {
        guard try !store.resultVersions(of: documentID).isEmpty else {
            throw LarderError(.configuration, "document \(documentID) has no result yet", hint: "run `larder resume`")
        }
        try store.decide(documentID: documentID, decision: .rejected, acceptedVersion: nil, reason: reason)
    }

    /// Validates a person's JSON and saves it as a new accepted version. Nothing changes if it is not valid JSON
    /// or breaks the schema; the error names `source` (the edited file or patch) and the location.
    public func saveEdit(documentID: Int64, json: String, source: String, note: String) throws -> Int {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Data(json.utf8))
        } catch let error as JSONParseError {
            throw LarderError(
                .badInput, "not valid JSON: \(error.message)", hint: "nothing was saved; fix the JSON and try again",
                path: source, line: error.line)
        }
        // Identity first: a forged hash is refused as read-only, not as a schema detail.
        try Self.checkReadOnly(
            value, current: try JSONValue(parsing: Data(currentResult(for: documentID).json.utf8)), source: source)
        let violations = try schemas.validate(value, against: resultSchema)
        if !violations.isEmpty {
            throw LarderError(
                .badInput,
                "breaks \(resultSchema): " + violations.prefix(5).map { SchemaViolation($0).description }.joined(separator: "; "),
                hint: "nothing was saved; fix these and try again", path: source)
        }
        return try store.addHumanVersion(
            documentID: documentID, json: value.serialized(options: [.sortedKeys]), note: note)
    }

    /// Members of a result that say what it is and where it came from, not what was read: review cannot change them.
    static let readOnlyMembers = ["document", "schemaVersion", "pipelineVersion", "llm"]

    /// Review edits results, not identity: `/document/*`, the version fields and the LLM's record must stay as they
    /// are, and every `provenance` in the edit must be one the current result holds (a person may delete an
    /// ingredient with its provenance, never write or change one). Throws naming the member and `source`.
    static func checkReadOnly(_ edited: JSONValue, current: JSONValue, source: String) throws {
        for member in readOnlyMembers where edited[member] != current[member] {
            throw LarderError(
                .badInput, "/\(member) is read-only: review edits what was read, not the document's identity, versions or provenance",
                hint: "nothing was saved; leave /\(member) as it is", path: source)
        }
        var available: [JSONValue: Int] = [:]
        for (_, value) in provenances(in: current) { available[value, default: 0] += 1 }
        for (pointer, value) in provenances(in: edited) {
            guard let count = available[value], count > 0 else {
                throw LarderError(
                    .badInput, "\(pointer) is read-only: a provenance says where the text was read and cannot be written or changed",
                    hint: "nothing was saved; keep the provenance the result had (you may delete the whole item)", path: source)
            }
            available[value] = count - 1
        }
    }

    /// Every `provenance` member, with its JSON pointer.
    static func provenances(in value: JSONValue, at pointer: String = "") -> [(String, JSONValue)] {
        switch value {
        case .object(let object):
            return object.flatMap { key, child -> [(String, JSONValue)] in
                let path = pointer + "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                return key == "provenance" ? [(path, child)] : provenances(in: child, at: path)
            }
        case .array(let array):
            return array.enumerated().flatMap { provenances(in: $1, at: pointer + "/\($0)") }
        default:
            return []
        }
    }

    /// Applies a JSON Patch (RFC 6902) to the current result and saves the outcome like an edit.
    public func applyPatch(documentID: Int64, patch: String, source: String) throws -> Int {
        let current = try currentResult(for: documentID)
        let patched: JSONValue
        do {
            let operations = try JSONValue(parsing: Data(patch.utf8))
            patched = try JSONPatch.apply(operations, to: try JSONValue(parsing: Data(current.json.utf8)))
        } catch let error as JSONParseError {
            throw LarderError(
                .badInput, "the patch is not valid JSON: \(error.message)", hint: "nothing was saved", path: source,
                line: error.line)
        } catch let error as JSONPatchError {
            throw LarderError(
                .badInput, "the patch does not apply: \(error)", hint: "nothing was saved; check the paths against `larder review show --json`",
                path: source)
        }
        return try saveEdit(
            documentID: documentID, json: patched.serialized(options: [.sortedKeys]), source: source,
            note: "patch \(URL(fileURLWithPath: source).lastPathComponent)")
    }
}
