import Foundation

/// Hooks for tests and diagnosis, off unless set. The CLI reads them from the environment:
///
/// - `LARDER_EXECUTION_LOG=FILE`: append `sha256<TAB>stage` to FILE each time a stage starts, so a test can
///   count executions across processes (the resume test proves no finished stage runs twice).
/// - `LARDER_FAULT_CRASH=STAGE:TEXT`: crash the process with SIGSEGV when STAGE starts on a document whose path
///   contains TEXT. This stands in for a native library crashing on a malicious file, which cannot be provoked
///   on demand; the crash-containment test uses it.
/// - `LARDER_FAULT_STALL=STAGE:TEXT:SECONDS`: sleep SECONDS when STAGE starts on such a document: a stage that is
///   still running when a test pauses the worker past its lease (the PostgreSQL fencing test).
public struct Diagnostics: Sendable {
    public var executionLog: String?
    public var crashStage: String?
    public var crashPathContains: String?
    public var stall: (stage: String, pathContains: String, seconds: Double)?

    public init(executionLog: String? = nil, crashStage: String? = nil, crashPathContains: String? = nil) {
        self.executionLog = executionLog
        self.crashStage = crashStage
        self.crashPathContains = crashPathContains
    }

    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Diagnostics {
        var diagnostics = Diagnostics(executionLog: environment["LARDER_EXECUTION_LOG"])
        if let fault = environment["LARDER_FAULT_CRASH"], let colon = fault.firstIndex(of: ":") {
            diagnostics.crashStage = String(fault[..<colon])
            diagnostics.crashPathContains = String(fault[fault.index(after: colon)...])
        }
        let stall = environment["LARDER_FAULT_STALL"]?.split(separator: ":", maxSplits: 2).map(String.init) ?? []
        if stall.count == 3, let seconds = Double(stall[2]), seconds > 0, seconds <= 600 {
            diagnostics.stall = (stall[0], stall[1], seconds)
        }
        return diagnostics
    }

    func stageStarting(document: DocumentRecord, stage: String) {
        if let executionLog {
            let line = "\(document.sha256)\t\(stage)\n"
            let fd = open(executionLog, O_WRONLY | O_APPEND | O_CREAT, 0o644)
            if fd >= 0 {
                _ = line.withCString { write(fd, $0, strlen($0)) }  // one small O_APPEND write is atomic
                close(fd)
            }
        }
        if let crashStage, crashStage == stage, let text = crashPathContains, document.path.contains(text) {
            // Swift's backtracer handles SIGSEGV and, for a signal no instruction caused, returns; a real native
            // fault would fault again and die. Reset the handler so this dies the way a native crash does.
            signal(SIGSEGV, SIG_DFL)
            raise(SIGSEGV)
        }
        if let stall, stall.stage == stage, document.path.contains(stall.pathContains) {
            Thread.sleep(forTimeInterval: stall.seconds)
        }
    }
}
