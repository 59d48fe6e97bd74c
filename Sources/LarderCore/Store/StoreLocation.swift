import Foundation

/// Where the checkpoint store lives: an SQLite file (the embedded default) or a PostgreSQL database shared by
/// workers on many hosts. Parsed from `--db`, `LARDER_DB` or `store.url`/`database` in pipeline.yml.
///
/// Its `description` never holds a password: print, log and store the location only through it.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// A `postgres://` or `postgresql://` URL is PostgreSQL; anything else is an SQLite path (relative paths are
    /// made absolute against the working directory).
    public static func parse(_ text: String) throws -> StoreLocation {
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            return .postgres(try PostgresLocation(url: text))
        }
        return .sqlite(path: URL(fileURLWithPath: text).standardizedFileURL.path)
    }

    /// Whether `text` names a PostgreSQL database rather than a file.
    public static func isPostgres(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let location): return location.description
        }
    }

    /// Replaces a PostgreSQL URL's password in `text` (an error message, a log line) with `***`.
    public static func redact(_ text: String) -> String {
        PostgresLocation.redactingPasswords(in: text)
    }
}

/// A PostgreSQL database: `postgres://user[:password]@host[:port]/database[?sslmode=…&schema=…]`.
///
/// The password is kept only to connect: `description`, `debugDescription` and `dump` (reflection) leave it out.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// libpq's `sslmode` values that Larder honours.
    public enum SSLMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it (libpq's default); `allow` is read as this.
        case prefer
        /// TLS, without checking the server's certificate.
        case require
        /// TLS, the certificate checked against the system's trust roots (not the host name).
        case verifyCA = "verify-ca"
        /// TLS, the certificate and the host name checked.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var sslMode: SSLMode
    /// The schema holding Larder's tables (`larder` unless `?schema=` says otherwise).
    public var schema: String

    public init(
        host: String, port: Int = 5432, user: String, password: String? = nil, database: String,
        sslMode: SSLMode = .prefer, schema: String = "larder"
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.sslMode = sslMode
        self.schema = schema
    }

    public init(url text: String) throws {
        // URLComponents percent-decodes the user and password for us; the error never repeats the text given.
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            throw Self.invalid("it is not a URL with a host (\(Self.redactingPasswords(in: text)))")
        }
        guard let user = components.user, !user.isEmpty else {
            throw Self.invalid("it names no user (postgres://USER@host/db)")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw Self.invalid("it names no database (postgres://user@host/DATABASE)") }
        self.init(
            host: host, port: components.port ?? 5432, user: user, password: components.password,
            database: database)
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                let value = item.value ?? ""
                guard let mode = value == "allow" ? .prefer : SSLMode(rawValue: value) else {
                    throw Self.invalid(
                        "sslmode '\(value)' is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sslMode = mode
            case "schema":
                let value = item.value ?? ""
                guard Self.isPlainIdentifier(value) else {
                    throw Self.invalid("schema '\(value)' is not a plain lower-case identifier")
                }
                schema = value
            case "password":
                throw Self.invalid("give the password in the URL's user part or in PGPASSWORD, not as ?password=")
            default:
                throw Self.invalid("unknown parameter '\(item.name)' (known: sslmode, schema)")
            }
        }
        if password == nil, let fromEnvironment = ProcessInfo.processInfo.environment["PGPASSWORD"] {
            password = fromEnvironment
        }
    }

    private static func invalid(_ what: String) -> LarderError {
        LarderError(
            .configuration, "the PostgreSQL store URL is not valid: \(what)",
            hint: "write it as postgres://user[:password]@host[:port]/database[?sslmode=require] (--db, LARDER_DB or store.url)")
    }

    static func isPlainIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, text.count <= 63, ("a"..."z").contains(first) || first == "_"
        else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The URL without its password (`***` stands where one was given).
    public var description: String {
        var text = "postgres://\(Self.escape(user))\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
        var parameters: [String] = []
        if sslMode != .prefer { parameters.append("sslmode=\(sslMode.rawValue)") }
        if schema != "larder" { parameters.append("schema=\(schema)") }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return text
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["url": description], displayStyle: .struct)
    }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? text
    }

    /// Every `scheme://user:password@` in `text` with the password replaced by `***`.
    static func redactingPasswords(in text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == " " || $0 == "?" || $0 == "\n" } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result += authority[..<colon] + ":***" + authority[at...]
            } else {
                result += authority
            }
            rest = rest[authorityEnd...]
        }
        return result + rest
    }
}
