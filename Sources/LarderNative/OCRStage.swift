import Foundation
import LarderCore
import LarderOCR
import LarderReceipts

/// Stage 3, `ocr`: the text lines of photos and scans through tesseract (`LarderOCR`), each with its confidence
/// and bounding box. Other documents pass through (`skipped`). Fails with a clear error on images leptonica
/// cannot read (corrupt or truncated files), over `limits.max_image_pixels`, or past the time limit.
///
/// Tesseract engines take 60–100 ms to start and must not be shared between threads: ``OCREnginePool`` keeps
/// one per worker thread that needs one and reuses it. The worker process runs with `OMP_THREAD_LIMIT=1`.
public struct OCRStage: Stage {
    public let name = StageDeclaration.ocr.name
    public let version = StageDeclaration.ocr.version

    public init() {}

    public func run(_ input: StageInput) throws -> StageOutput {
        let detected = try input.output(of: "detect", as: DetectOutput.self)
        guard detected.format.isImage else {
            return try StageOutput(OCRStageOutput(skipped: true, lines: [], meanConfidence: 0, steps: []))
        }
        let path = input.document.path
        let limits = OCRLimits(maxPixels: Int(input.config.limits.maxImagePixels), timeLimit: .seconds(60))
        let result: OCRResult
        do {
            result = try OCREnginePool.shared.withEngine { try $0.recognize(imageAt: path, limits: limits) }
        } catch let error as ReceiptError {
            let kind: LarderError.Kind =
                error.code == .engineUnavailable || error.code == .recognitionFailed ? .transient
                : error.code == .imageTooLarge ? .overLimit : .badInput
            throw LarderError(kind, error.message, hint: error.hint, path: path)
        }
        return try StageOutput(
            OCRStageOutput(skipped: false, lines: result.lines, meanConfidence: result.meanConfidence, steps: result.steps))
    }
}

/// Idle tesseract engines, one per worker thread that has needed one.
final class OCREnginePool: @unchecked Sendable {
    // @unchecked: `idle` is only touched under `lock`; an engine is used by one thread at a time (taken out of
    // `idle` while in use).
    static let shared = OCREnginePool()
    private let lock = NSLock()
    private var idle: [OCREngine] = []

    func withEngine<T>(_ body: (OCREngine) throws -> T) throws -> T {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        let engine = try reused ?? OCREngine()
        defer {
            lock.lock()
            idle.append(engine)
            lock.unlock()
        }
        return try body(engine)
    }
}
