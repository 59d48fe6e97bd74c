import Foundation
import LarderCore

/// `GET /metrics` in Prometheus' text exposition format (0.0.4), written by hand: a few gauges read from the store
/// when scraped (documents by state, queue depth, stage latency histograms) and counters kept here (uploads, HTTP
/// responses by status).
final class ServerMetrics: Sendable {
    private let uploads = Locked<[String: Int]>([:])
    private let responses = Locked<[Int: Int]>([:])

    /// Upper bounds of the stage latency histogram's buckets, in seconds.
    static let latencyBounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    enum UploadOutcome: String {
        case new, duplicate, rejected
    }

    func countUpload(_ outcome: UploadOutcome) { uploads.withLock { $0[outcome.rawValue, default: 0] += 1 } }
    func countResponse(status: Int) { responses.withLock { $0[status, default: 0] += 1 } }

    func render(store: any ServiceStore, pipelineVersion: String, workerRunning: Bool, eventStreams: Int) throws -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("larder_documents", "gauge", "Documents by state.")
        let counts = try store.documentCounts()
        for state in DocumentState.allCases {
            out += "larder_documents{state=\"\(state.rawValue)\"} \(counts[state] ?? 0)\n"
        }
        family("larder_queue_depth", "gauge", "Documents with work left for the current pipeline.")
        out += "larder_queue_depth \(try store.countDocumentsNeedingWork(pipelineVersion: pipelineVersion))\n"
        family("larder_worker_running", "gauge", "1 while a larder-worker process works the queue.")
        out += "larder_worker_running \(workerRunning ? 1 : 0)\n"
        family("larder_event_streams", "gauge", "Open GET /v1/events streams.")
        out += "larder_event_streams \(eventStreams)\n"
        family("larder_stage_duration_seconds", "histogram", "Time each stage took on a document (finished runs).")
        for latency in try store.stageLatencies(boundsMilliseconds: Self.latencyBounds.map { $0 * 1000 }) {
            let label = "stage=\"\(latency.stage)\""
            for (bound, count) in zip(Self.latencyBounds, latency.counts) {
                out += "larder_stage_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(count)\n"
            }
            out += "larder_stage_duration_seconds_bucket{\(label),le=\"+Inf\"} \(latency.count)\n"
            out += "larder_stage_duration_seconds_sum{\(label)} \(latency.sumMilliseconds / 1000)\n"
            out += "larder_stage_duration_seconds_count{\(label)} \(latency.count)\n"
        }
        family("larder_uploads_total", "counter", "Uploads by outcome since the server started.")
        let uploaded = uploads.withLock { $0 }
        for outcome in [UploadOutcome.new, .duplicate, .rejected] {
            out += "larder_uploads_total{outcome=\"\(outcome.rawValue)\"} \(uploaded[outcome.rawValue] ?? 0)\n"
        }
        family("larder_http_responses_total", "counter", "HTTP responses by status since the server started.")
        for (status, count) in responses.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            out += "larder_http_responses_total{status=\"\(status)\"} \(count)\n"
        }
        return out
    }
}
