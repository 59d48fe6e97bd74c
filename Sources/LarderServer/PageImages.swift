import Foundation
import LarderCore

/// PDF pages as PNG for the review page, rendered by poppler's `pdftoppm` (Debian's poppler-utils) in a child
/// process: no native code runs in the server, a hostile PDF can at worst kill that child, and a render that takes
/// longer than `timeoutSeconds` is stopped. The PDF comes from the store's bytes, so any server over a shared
/// database shows any document. Pages are kept in `<uploads>/pages/<sha256>-<page>.png`, a name made of the
/// document's hash and a page number, nothing from the request.
struct PageImages: Sendable {
    let directory: String
    var timeoutSeconds: Double = 20
    /// The longer side of a rendered page, in pixels (`pdftoppm -scale-to`): a page of any size, however large its
    /// media box says it is, comes out at most this wide and high.
    var longerSide = 1100
    /// Renders at once, for the whole server: the rest wait their turn.
    static let renders = AsyncLimiter(2)

    /// `pdftoppm`, when it is installed.
    static let tool: String? = ["/usr/bin/pdftoppm", "/usr/local/bin/pdftoppm"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The page as PNG, rendered once and then read from the cache. `source` gives the PDF's bytes (from the
    /// store: see ``ServiceContext/sourceBytes(of:)``); they are read only when the page is not cached, written to
    /// a private file named by a fresh UUID for `pdftoppm`, and that file is removed after.
    func png(of document: DocumentRecord, page: Int, source: @Sendable () async throws -> Data?) async throws -> Data {
        guard let tool = Self.tool else {
            throw APIError(.notFound, "pdftoppm is not installed here, so pages are not rendered", hint: "install poppler-utils")
        }
        let cached = directory + "/pages/\(document.sha256)-\(page).png"
        if let data = FileManager.default.contents(atPath: cached) { return data }
        guard let pdf = try await source() else {
            throw APIError(.notFound, "the bytes of document \(document.id) are not in the store, so its pages are not shown")
        }
        try FileManager.default.createDirectory(atPath: directory + "/pages", withIntermediateDirectories: true)
        let prefix = directory + "/pages/.render-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(atPath: prefix + ".png")
            try? FileManager.default.removeItem(atPath: prefix + ".pdf")
        }
        try SafeFile.write(pdf, to: prefix + ".pdf", what: "the PDF to render")
        let arguments = [
            "-png", "-scale-to", String(longerSide), "-f", String(page), "-l", String(page), "-singlefile", prefix + ".pdf",
            prefix,
        ]
        await Self.renders.acquire()
        let status = await Self.run(tool, arguments, timeout: timeoutSeconds)
        await Self.renders.release()
        guard status == 0, let data = FileManager.default.contents(atPath: prefix + ".png"),
            data.starts(with: [0x89, 0x50, 0x4E, 0x47])
        else {
            throw APIError(.notFound, "page \(page) of document \(document.id) could not be rendered")
        }
        try? FileManager.default.moveItem(atPath: prefix + ".png", toPath: cached)
        return data
    }

    /// Runs the tool on its own thread (it blocks), ending it after `timeout` seconds. Returns its exit status.
    private static func run(_ tool: String, _ arguments: [String], timeout: Double) async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let thread = Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: tool)
                process.arguments = arguments
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                let exited = DispatchSemaphore(value: 0)
                process.terminationHandler = { _ in exited.signal() }
                do { try process.run() } catch {
                    continuation.resume(returning: -1)
                    return
                }
                if exited.wait(timeout: .now() + timeout) == .timedOut {
                    process.terminate()
                    _ = exited.wait(timeout: .now() + 2)
                    continuation.resume(returning: -1)
                    return
                }
                continuation.resume(returning: process.terminationStatus)
            }
            thread.start()
        }
    }
}

/// At most `limit` holders at once; the others wait, first come first served.
actor AsyncLimiter {
    private let limit: Int
    private var holders = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) { self.limit = max(1, limit) }

    func acquire() async {
        if holders < limit {
            holders += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the place to the next waiter, or frees it.
    func release() {
        if waiting.isEmpty {
            holders -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
