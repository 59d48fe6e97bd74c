import Foundation

/// Turns the paths given to `larder ingest` into registered documents.
///
/// Folders are walked recursively in name order (hidden entries, whose names start with ".", are skipped);
/// each regular file is hashed and registered by its SHA-256. Paths that cannot become documents (missing,
/// unreadable, symlink loops, over `limits.max_file_bytes`, not regular files) are recorded as input errors with
/// what to do, and the rest go on. Files are hashed and registered in chunks, so memory stays flat.
public struct Intake: Sendable {
    public let store: any CheckpointStore
    public let pipeline: Pipeline
    public let config: PipelineConfig

    public init(store: any CheckpointStore, pipeline: Pipeline, config: PipelineConfig) {
        self.store = store
        self.pipeline = pipeline
        self.config = config
    }

    /// What registration found.
    public struct Report: Sendable, Codable, Equatable {
        /// Files found and hashed.
        public var files = 0
        /// Documents registered for the first time.
        public var new = 0
        /// Files whose bytes were registered by an earlier run.
        public var known = 0
        /// Files whose bytes match another file of this batch.
        public var duplicates: [Duplicate] = []
        /// Paths that could not become documents.
        public var errors: [LarderError.Record] = []

        public struct Duplicate: Sendable, Codable, Equatable {
            public var path: String
            public var sameAs: String
        }
    }

    private static let chunkSize = 128

    public func ingest(paths: [String], batchID: Int64) throws -> Report {
        var report = Report()
        var pending: [String] = []
        var walker = Walker(maxFileBytes: config.limits.maxFileBytes)
        for path in paths {
            try walker.walk(path) { event in
                switch event {
                case .file(let file):
                    pending.append(file)
                    if pending.count >= Self.chunkSize {
                        try register(pending, batchID: batchID, into: &report)
                        pending.removeAll(keepingCapacity: true)
                    }
                case .error(let error):
                    try store.recordInputError(batchID: batchID, path: error.path ?? path, error: error)
                    report.errors.append(error.record)
                }
            }
        }
        try register(pending, batchID: batchID, into: &report)
        return report
    }

    /// Hashes a chunk in parallel, then registers it in one transaction.
    private func register(_ paths: [String], batchID: Int64, into report: inout Report) throws {
        guard !paths.isEmpty else { return }
        let results = Locked([Result<RegisteredFile, LarderError>?](repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = Result { () throws(LarderError) -> RegisteredFile in try Self.hash(paths[index]) }
            results.withLock { $0[index] = result }
        }
        var files: [RegisteredFile] = []
        for result in results.withLock({ $0 }) {
            switch result! {
            case .success(let file): files.append(file)
            case .failure(let error):
                try store.recordInputError(batchID: batchID, path: error.path ?? "", error: error)
                report.errors.append(error.record)
            }
        }
        let registrations = try store.register(files, batchID: batchID, stages: pipeline.stageNames)
        report.files += files.count
        for (file, registration) in zip(files, registrations) {
            switch registration {
            case .new: report.new += 1
            case .known: report.known += 1
            case .duplicate(_, let of): report.duplicates.append(.init(path: file.path, sameAs: of))
            }
        }
    }

    private static func hash(_ path: String) throws(LarderError) -> RegisteredFile {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Walker.statError(path: path, errno: errno) }
        do {
            let sha = try SHA256.hex(fileAt: path)
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            return RegisteredFile(path: path, sha256: sha, byteCount: Int64(info.st_size), modifiedAt: modified)
        } catch {
            throw LarderError.wrap(error, kind: .unreadable, path: path)
        }
    }
}

/// Walks files and folders, reporting each regular file or the reason a path was skipped.
struct Walker {
    enum Event {
        case file(String)
        case error(LarderError)
    }

    let maxFileBytes: Int64
    /// (device, inode) of folders entered, to stop at symlinked folder loops.
    private var visited = Set<[UInt64]>()

    init(maxFileBytes: Int64) {
        self.maxFileBytes = maxFileBytes
    }

    mutating func walk(_ path: String, _ visit: (Event) throws -> Void) throws {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var info = stat()
        guard stat(absolute, &info) == 0 else {
            try visit(.error(Self.statError(path: absolute, errno: errno)))
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            let key = [UInt64(info.st_dev), UInt64(info.st_ino)]
            guard visited.insert(key).inserted else {
                try visit(
                    .error(
                        LarderError(
                            .unreadable, "symlink loop: this folder was already walked",
                            hint: "remove the link that points back into its own folder tree", path: absolute)))
                return
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: absolute).sorted()
            } catch {
                try visit(
                    .error(
                        LarderError(
                            .unreadable, "cannot list the folder", hint: "check its permissions", path: absolute)))
                return
            }
            for name in names where !name.hasPrefix(".") {
                try walk(absolute + "/" + name, visit)
            }
        case S_IFREG:
            if Int64(info.st_size) > maxFileBytes {
                try visit(
                    .error(
                        LarderError(
                            .overLimit, "file is \(info.st_size) bytes, over the limit of \(maxFileBytes)",
                            hint: "raise limits.max_file_bytes in pipeline.yml if it really is a recipe or receipt",
                            path: absolute)))
                return
            }
            guard access(absolute, R_OK) == 0 else {
                try visit(
                    .error(
                        LarderError(
                            .unreadable, "permission denied: the file cannot be read",
                            hint: "give the user running larder read access (chmod a+r)", path: absolute)))
                return
            }
            try visit(.file(absolute))
        default:
            try visit(
                .error(
                    LarderError(
                        .unreadable, "not a regular file (a device, socket or pipe)",
                        hint: "copy the content to a regular file", path: absolute)))
        }
    }

    static func statError(path: String, errno code: Int32) -> LarderError {
        switch code {
        case ELOOP:
            return LarderError(
                .unreadable, "symlink loop: the links never reach a file",
                hint: "fix or remove the symbolic link", path: path)
        case ENOENT:
            var link = stat()
            if lstat(path, &link) == 0 {
                return LarderError(
                    .unreadable, "broken symlink: its target does not exist", hint: "fix or remove the link",
                    path: path)
            }
            return LarderError(.unreadable, "no such file or folder", hint: "check the path", path: path)
        case EACCES:
            return LarderError(
                .unreadable, "permission denied", hint: "give the user running larder read access", path: path)
        default:
            return LarderError(.unreadable, String(cString: strerror(code)), hint: "check the path", path: path)
        }
    }
}
