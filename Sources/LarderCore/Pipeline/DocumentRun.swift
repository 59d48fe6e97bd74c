import Foundation
import Logging

/// One document through a pipeline: the code the work queue runs per stage (``StageStep``) and, without a
/// checkpoint store, per document (``DocumentRun/run(_:document:config:logger:skipping:schemas:)``).
///
/// The work queue (`larder ingest`) and the in-memory runner share ``StageStep/execute(_:input:config:schemas:)``:
/// the stage's run, the check that the file did not change under it, the output size limit and the schema check. The
/// in-memory runner is what every `larder eval`, the worker's warm-up and the ingest-equals-eval tests use, so a
/// figure measured there is the result `larder export` writes for the same file and configuration.
public enum StageStep {
    /// Runs one stage on one document and checks its output as the work queue stores it.
    /// - Parameter traced: whether the stage and its check go into the work trace (`LARDER_TRACE`): the work queue's
    ///   documents do; the in-memory runner's (the warm-up, evaluations) do not, as the warm-up is traced whole.
    /// - Returns: the output and its schema violations (an output that breaks its schema fails its document; the
    ///   output is kept for review, and never reaches an export).
    /// - Throws: the stage's error, ``LarderError/Kind/overLimit`` for an output over `limits.max_stage_output_bytes`,
    ///   and `badInput` when the file changed while the stage read it.
    public static func execute(
        _ stage: any Stage, input: StageInput, config: PipelineConfig, schemas: SchemaCatalog, traced: Bool = true
    ) throws -> (output: StageOutput, violations: [SchemaViolation]) {
        let document = input.document
        let trace = traced ? WorkTrace.shared : nil
        let runStart = trace.map { _ in WorkTrace.Stamp.now() }
        let output: StageOutput
        do {
            defer { if let runStart { trace?.record("stage", stage.name, document: document.id, since: runStart) } }
            output = try stage.run(input)
        }
        let checkStart = trace.map { _ in WorkTrace.Stamp.now() }
        if stage.readsDocumentFile && output.readDocumentFile { try WorkQueue.checkUnchanged(document, stage: stage.name) }
        let outputBytes = output.json.utf8.count
        if outputBytes > config.limits.maxStageOutputBytes {
            throw LarderError(
                .overLimit,
                "\(stage.name) made \(outputBytes) bytes of output, over the limit of \(config.limits.maxStageOutputBytes)",
                hint: "the document is unusually large: split it, or raise limits.max_stage_output_bytes",
                path: document.path)
        }
        // The tree the stage's encoder built, not its text parsed again (the same JSON either way).
        let violations = try stage.outputSchema.map { schema in
            try output.treeEncoding.map { try schemas.validate($0, against: schema) }
                ?? schemas.validate(json: output.json, against: schema)
        }?.map(SchemaViolation.init) ?? []
        if !violations.isEmpty {
            input.logger.warning("\(stage.name) output breaks \(stage.outputSchema!): \(violations[0]); the document fails")
        }
        if let checkStart { trace?.record("check", stage.name, document: document.id, since: checkStart) }
        return (output, violations)
    }

    /// The status a failed attempt leaves its stage in: bad input fails at once; anything else is tried again
    /// until `max_attempts`, then quarantined.
    public static func status(after failure: LarderError, attempt: Int, config: PipelineConfig) -> StageStatus {
        !failure.isRetryable ? .failed : attempt >= config.maxAttempts ? .quarantined : .pending
    }
}

/// The standard stages run on one document in memory, with no checkpoint store: the result `larder export` would
/// write for the file under the same configuration.
public enum DocumentRun {
    /// How one document ended.
    public struct Outcome: Sendable {
        /// The document's state: `done`, `failed` or `quarantined` (as `larder status` would show it).
        public var state: DocumentState
        /// The result `larder export` writes (its very bytes, with `pipelineVersion`, decoded); nil when the
        /// document failed or its result broke its schema (an export leaves both out).
        public var result: DocumentResult?
        /// The failure that stopped the document, naming its stage.
        public var failure: LarderError?
        /// The schema violations of the output that failed the document (empty otherwise).
        public var violations: [SchemaViolation]
        /// Every stage's output as stored, by stage name.
        public var outputs: [String: String]

        public init(
            state: DocumentState, result: DocumentResult?, failure: LarderError?, violations: [SchemaViolation],
            outputs: [String: String]
        ) {
            self.state = state
            self.result = result
            self.failure = failure
            self.violations = violations
            self.outputs = outputs
        }
    }

    /// Runs `pipeline`'s stages on `document`, in order, each through ``StageStep`` with the work queue's retries
    /// (an error that may pass on another try is tried again up to `max_attempts`).
    /// - Parameter skipping: stages not run (their output is absent, as a stage the pipeline does not have).
    public static func run(
        _ pipeline: Pipeline, document: DocumentRecord, config: PipelineConfig, logger: Logger,
        skipping: Set<String> = [], schemas: SchemaCatalog
    ) -> Outcome {
        var outputs: [String: String] = [:]
        let decoded = DecodedOutputs()
        var result: DocumentResult?
        for stage in pipeline.stages where !skipping.contains(stage.name) {
            var logger = logger
            logger[metadataKey: "stage"] = "\(stage.name)"
            var attempt = 1
            while true {
                do {
                    let input = StageInput(
                        document: document, config: config, earlierOutputs: outputs, logger: logger, decoded: decoded)
                    let step = try StageStep.execute(stage, input: input, config: config, schemas: schemas, traced: false)
                    outputs[stage.name] = step.output.json
                    decoded.seed(stage: stage.name, output: step.output)
                    if !step.violations.isEmpty {
                        // As the work queue does: an output that breaks its schema fails the document.
                        let failure = WorkQueue.schemaFailure(
                            step.violations, schema: stage.outputSchema!, document: document, stage: stage.name)
                        return Outcome(
                            state: .failed, result: nil, failure: failure, violations: step.violations, outputs: outputs)
                    }
                    if stage.name == pipeline.resultStage {
                        // The bytes `larder export` writes for this output, decoded: what a user gets.
                        result = try? JSONDecoder().decode(
                            DocumentResult.self,
                            from: Exporter.exported(step.output.json, pipelineVersion: pipeline.version))
                    }
                    break
                } catch {
                    let failure = LarderError.wrap(error).adding(path: document.path, documentID: document.id, stage: stage.name)
                    switch StageStep.status(after: failure, attempt: attempt, config: config) {
                    case .pending:
                        attempt += 1
                        continue
                    case let status:
                        return Outcome(
                            state: status == .quarantined ? .quarantined : .failed, result: nil, failure: failure,
                            violations: [], outputs: outputs)
                    }
                }
            }
        }
        return Outcome(
            state: .done, result: result, failure: nil, violations: [], outputs: outputs)
    }
}
