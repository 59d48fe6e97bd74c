import Foundation
import LarderJSON
import LarderTestSupport

/// The shared conformance suites (`../shared/data/<name>`, found by LarderTestSupport).
enum TestData {
    static func folder(_ name: String) -> URL? { SharedData.path(name).map { URL(fileURLWithPath: $0) } }

    static func load(_ url: URL) throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: url))
    }
}
