import Foundation
import Logging

/// swift-log's `StreamLogHandler` line (`time level label : metadata [source] message`) on standard error, with
/// control characters escaped (``TerminalText/safe(_:)``): a document's path or title in a log line cannot drive
/// the terminal.
public struct TerminalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
        if let explicit = event.metadata { all.merge(explicit) { $1 } }
        let pairs = all.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        var time = time_t(Date().timeIntervalSince1970)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        let stamp = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let text = "\(stamp) \(event.level) \(label) :\(pairs) [\(event.source)] \(event.message)"
        FileHandle.standardError.write(Data((TerminalText.safe(text) + "\n").utf8))
    }
}
