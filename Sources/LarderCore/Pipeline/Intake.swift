import Foundation

/// Turns the paths given to `larder ingest` into registered documents.
///
/// Folders are walked recursively in name order (hidden entries, whose names start with ".", are skipped, and so
/// are the photos beside a Nextcloud Cookbook `recipe.json`: `full.jpg`, `thumb.jpg`, `thumb16.jpg`);
/// each regular file is hashed and registered by its SHA-256. A file whose path, size and modification time
/// match its last registration is not hashed again (the `detect` stage re-checks the hash if they differ
/// from the document's). Paths that cannot become documents (missing,
/// unreadable, symlink loops, over `limits.max_file_bytes`, not regular files) are recorded as input errors with
/// what to do, and the rest go on. Files are hashed and registered in chunks, so memory stays flat.
public struct Intake: Sendable {
    public let store: any CheckpointStore
    /// The stages a new document gets a checkpoint row for.
    public let stages: [String]
    public let config: PipelineConfig

    public init(store: any CheckpointStore, manifest: PipelineManifest, config: PipelineConfig) {
        self.store = store
        self.stages = manifest.stageNames
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

    /// `firstNew` runs once, right after the first chunk that registered a new document (`larder ingest` starts
    /// its worker there when nothing else could be waiting for it).
    public func ingest(paths: [String], batchID: Int64, firstNew: () -> Void = {}) throws -> Report {
        var report = Report()
        var pending: [FileIdentity] = []
        var walker = Walker(maxFileBytes: config.limits.maxFileBytes)
        var announced = false
        func registerPending() throws {
            try register(pending, batchID: batchID, into: &report)
            pending.removeAll(keepingCapacity: true)
            if !announced && report.new > 0 {
                announced = true
                firstNew()
            }
        }
        for path in paths {
            try walker.walk(path) { event in
                switch event {
                case .file(let file):
                    pending.append(file)
                    if pending.count >= Self.chunkSize { try registerPending() }
                case .error(let error):
                    try store.recordInputError(batchID: batchID, path: error.path ?? path, error: error)
                    report.errors.append(error.record)
                }
            }
        }
        try registerPending()
        return report
    }

    /// Hashes a chunk in parallel (skipping unchanged known files), then registers it in one transaction.
    private func register(_ files: [FileIdentity], batchID: Int64, into report: inout Report) throws {
        guard !files.isEmpty else { return }
        let known = try store.knownHashes(of: files)
        let results = Locked([Result<RegisteredFile, LarderError>?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let result = Result { () throws(LarderError) -> RegisteredFile in
                let sha: String
                if let knownSHA = known[file.path] { sha = knownSHA } else { sha = try Self.hash(file.path) }
                return RegisteredFile(
                    path: file.path, sha256: sha, byteCount: file.byteCount, modifiedAt: file.modifiedAt)
            }
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
        let registrations = try store.register(files, batchID: batchID, stages: stages)
        report.files += files.count
        for (file, registration) in zip(files, registrations) {
            switch registration {
            case .new: report.new += 1
            case .known: report.known += 1
            case .duplicate(_, let of): report.duplicates.append(.init(path: file.path, sameAs: of))
            }
        }
    }

    private static func hash(_ path: String) throws(LarderError) -> String {
        do {
            return try SHA256.hex(fileAt: path)
        } catch {
            throw LarderError.wrap(error, kind: .unreadable, path: path)
        }
    }
}

/// Walks files and folders, reporting each regular file or the reason a path was skipped.
struct Walker {
    enum Event {
        case file(FileIdentity)
        case error(LarderError)
    }

    let maxFileBytes: Int64
    /// (device, inode) of folders entered, to stop at symlinked folder loops.
    private var visited = Set<[UInt64]>()

    init(maxFileBytes: Int64) {
        self.maxFileBytes = maxFileBytes
    }

    /// Walks a path given by the user (made absolute and standardised first).
    mutating func walk(_ path: String, _ visit: (Event) throws -> Void) throws {
        try walkAbsolute(URL(fileURLWithPath: path).standardizedFileURL.path, visit)
    }

    private mutating func walkAbsolute(_ absolute: String, _ visit: (Event) throws -> Void) throws {
        var info = stat()
        guard FilePath.withCString(absolute, { stat($0, &info) }) == 0 else {
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
            // Names as the file system's bytes (not Foundation's strings, which lose a name that is not UTF-8).
            guard let names = FilePath.contentsOfDirectory(absolute)?.sorted() else {
                try visit(
                    .error(
                        LarderError(
                            .unreadable, "cannot list the folder", hint: "check its permissions", path: absolute)))
                return
            }
            // A Nextcloud Cookbook recipe folder: its photos are the recipe's, never documents (receipts) of their own.
            let recipePhotos: Set<String> = names.contains("recipe.json") ? Self.nextcloudPhotos : []
            for name in names where !name.hasPrefix(".") && !recipePhotos.contains(name) {
                try walkAbsolute(absolute == "/" ? "/" + name : absolute + "/" + name, visit)
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
            guard FilePath.withCString(absolute, { access($0, R_OK) }) == 0 else {
                try visit(
                    .error(
                        LarderError(
                            .unreadable, "permission denied: the file cannot be read",
                            hint: "give the user running larder read access (chmod a+r)", path: absolute)))
                return
            }
            try visit(.file(FileIdentity(path: absolute, info: info)))
        default:
            try visit(
                .error(
                    LarderError(
                        .unreadable, "not a regular file (a device, socket or pipe)",
                        hint: "copy the content to a regular file", path: absolute)))
        }
    }

    /// The images Nextcloud Cookbook keeps beside a `recipe.json`.
    static let nextcloudPhotos: Set<String> = ["full.jpg", "thumb.jpg", "thumb16.jpg"]

    static func statError(path: String, errno code: Int32) -> LarderError {
        switch code {
        case ELOOP:
            return LarderError(
                .unreadable, "symlink loop: the links never reach a file",
                hint: "fix or remove the symbolic link", path: path)
        case ENOENT:
            var link = stat()
            if FilePath.withCString(path, { lstat($0, &link) }) == 0 {
                return LarderError(
                    .unreadable, "broken symlink: its target does not exist", hint: "fix or remove the link",
                    path: path)
            }
            return LarderError(.unreadable, "no such file or folder", hint: "check the path", path: path)
        case EACCES:
            return LarderError(
                .unreadable, "permission denied", hint: "give the user running larder read access", path: path)
        default:
            return LarderError(
                .unreadable, "cannot read it: \(String(cString: strerror(code)))", hint: "check the path", path: path)
        }
    }
}
