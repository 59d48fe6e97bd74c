import Foundation

/// An error from the receipt pipeline: what went wrong, which file, and what to do about it.
///
/// A struct over an open set of codes, so new failure kinds can be added without breaking callers
/// that switch on ``Code``. Never carries secrets: only file paths and library messages.
public struct ReceiptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. Compare with the static members (`.imageTooLarge`, …).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable identifier, e.g. `"image-too-large"`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// Tesseract could not start (missing `tesseract-ocr-eng` traineddata, bad `TESSDATA_PREFIX`).
        public static let engineUnavailable = Code("engine-unavailable")
        /// The file does not exist or leptonica cannot decode it.
        public static let imageUnreadable = Code("image-unreadable")
        /// The image has more pixels than ``OCRLimits/maxPixels``.
        public static let imageTooLarge = Code("image-too-large")
        /// Recognition did not finish within ``OCRLimits/timeLimit``.
        public static let timedOut = Code("timed-out")
        /// Tesseract or leptonica failed while processing an image.
        public static let recognitionFailed = Code("recognition-failed")
        /// A label file (JSON) is unreadable or malformed.
        public static let labelUnreadable = Code("label-unreadable")
        /// A folder could not be listed.
        public static let folderUnreadable = Code("folder-unreadable")
        /// The bundled lexicon resource is missing or malformed.
        public static let lexiconUnavailable = Code("lexicon-unavailable")

        public var description: String { rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The file or folder concerned, when there is one.
    public let path: String?
    /// What happened, in one sentence.
    public let message: String
    /// What the user can do about it.
    public let hint: String

    /// Creates an error value.
    public init(_ code: Code, path: String?, message: String, hint: String) {
        self.code = code
        self.path = path
        self.message = message
        self.hint = hint
    }

    /// `"<path>: <message> (<code>). Hint: <hint>"`.
    public var description: String {
        var s = path.map { "\($0): " } ?? ""
        s += "\(message) (\(code)). Hint: \(hint)"
        return s
    }
}
