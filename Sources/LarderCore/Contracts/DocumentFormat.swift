import Foundation

/// The formats Larder recognises.
public enum DocumentFormat: String, Codable, Sendable {
    case pdf, png, jpeg, tiff, text, markdown, html, json
    /// A ZIP or gzip archive: a recipe app's export, read member by member.
    case archive

    public var mediaType: String {
        switch self {
        case .pdf: "application/pdf"
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .tiff: "image/tiff"
        case .text: "text/plain"
        case .markdown: "text/markdown"
        case .html: "text/html"
        case .json: "application/json"
        case .archive: "application/zip"
        }
    }

    public var isImage: Bool { self == .png || self == .jpeg || self == .tiff }

    /// How messages name the format ("an HTML page").
    public var description: String {
        switch self {
        case .html: "an HTML page"
        case .json: "JSON"
        case .markdown: "Markdown text"
        case .text: "plain text"
        default: "a \(rawValue.uppercased()) file"
        }
    }
}
