import Foundation

/// Turns the paths given to `larder ingest` into registered documents.
///
/// Folders are walked recursively in name order (hidden entries, whose names start with ".", are skipped, and so
/// are the photos beside a Nextcloud Cookbook `recipe.json`: `full.jpg`, `thumb.jpg`, `thumb16.jpg`);
/// each regular file is hashed and registered by its SHA-256. Larder's own files — the checkpoint database, the LLM
/// cache and their `-wal`, `-shm` and `-journal` files — are never registered (recognised by device and inode, so a
/// link or another name for them is recognised too) and never opened. A symlink inside a folder is followed only when
/// its target lies inside one of the folders given (`followSymlinks` follows every one); the others are skipped and
/// listed in the report. A path given directly is always followed. A file whose path, size and modification time
/// match its last registration is not hashed again (the `detect` stage re-checks the hash if they differ
/// from the document's). Paths that cannot become documents (missing,
/// unreadable, symlink loops, over `limits.max_file_bytes`, not regular files) are recorded as input errors with
/// what to do, and the rest go on. Files are hashed and registered in chunks, so memory stays flat.
public struct Intake: Sendable {
    public let store: any CheckpointStore
    /// The stages a new document gets a checkpoint row for.
    public let stages: [String]
    public let config: PipelineConfig
    /// Follow symlinks inside the folders given even when they lead outside them (`larder ingest --follow-symlinks`).
    public var followSymlinks: Bool

    public init(store: any CheckpointStore, manifest: PipelineManifest, config: PipelineConfig, followSymlinks: Bool = false) {
        self.store = store
        self.stages = manifest.stageNames
        self.config = config
        self.followSymlinks = followSymlinks
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
        /// Paths left out on purpose: Larder's own files, symlinks leading outside the folders given.
        public var skipped: [Skipped] = []

        public struct Skipped: Sendable, Codable, Equatable {
            public enum Reason: String, Sendable, Codable {
                /// The checkpoint database, the LLM cache, or one of their `-wal`/`-shm`/`-journal` files.
                case larderFile = "larder-file"
                /// A symlink whose target lies outside every folder given (`--follow-symlinks` follows it).
                case symlinkOutside = "symlink-outside"
            }

            public var path: String
            public var reason: Reason
            /// Where the symlink leads, for `symlinkOutside`.
            public var target: String?
        }

        public struct Duplicate: Sendable, Codable, Equatable {
            public var path: String
            public var sameAs: String
        }
    }

    private static let chunkSize = 128
    /// With a store that keeps the bytes, a chunk's files are held in memory from their hash to their store: a chunk
    /// ends once its files reach this many bytes (so memory holds at most this plus one file).
    private static let chunkBytes: Int64 = 256 << 20

    /// Whether the store keeps documents' bytes (PostgreSQL): then each file is read once, whole, and the bytes
    /// hashed are the bytes stored.
    private var keepsBytes: Bool { store is any DocumentBytesStore }

    /// The folder `larder serve` keeps uploads and rendered pages in: `<database>.uploads` beside the database.
    /// Intake never registers it nor anything in it. With a PostgreSQL store (a URL, not a file): `larder.uploads`
    /// in the working directory (the URL, which may hold a password, never names a folder).
    public static func uploadsDirectory(forDatabase path: String) -> String {
        if StoreLocation.isPostgres(path) { return URL(fileURLWithPath: "larder.uploads").standardizedFileURL.path }
        return URL(fileURLWithPath: path).standardizedFileURL.path + ".uploads"
    }

    /// Whether `path` is one of Larder's own files for `config` (the database, the LLM cache, their side files):
    /// `detect` refuses to read one a database registered before intake knew them.
    public static func isLarderFile(_ path: String, config: PipelineConfig) -> Bool {
        var info = stat()
        guard FilePath.withCString(path, { stat($0, &info) }) == 0 else { return false }
        return OwnFiles(config: config).contains(path, info)
    }

    /// `firstNew` runs once, right after the first chunk that registered a new document (`larder ingest` starts
    /// its worker there when nothing else could be waiting for it).
    public func ingest(paths: [String], batchID: Int64, firstNew: () -> Void = {}) throws -> Report {
        var report = Report()
        var pending: [FileIdentity] = []
        var pendingBytes: Int64 = 0
        var walker = Walker(
            maxFileBytes: config.limits.maxFileBytes, ownFiles: OwnFiles(config: config),
            roots: followSymlinks ? nil : paths.compactMap(Walker.realPath))
        var announced = false
        func registerPending() throws {
            try register(pending, batchID: batchID, into: &report)
            pending.removeAll(keepingCapacity: true)
            pendingBytes = 0
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
                    pendingBytes += file.byteCount
                    if pending.count >= Self.chunkSize || (keepsBytes && pendingBytes >= Self.chunkBytes) {
                        try registerPending()
                    }
                case .error(let error):
                    try store.recordInputError(batchID: batchID, path: error.path ?? path, error: error)
                    report.errors.append(error.record)
                case .skipped(let skipped):
                    report.skipped.append(skipped)
                }
            }
        }
        try registerPending()
        return report
    }

    /// Hashes a chunk in parallel (skipping unchanged known files), then registers it in one transaction. With a
    /// store that keeps the bytes, each file hashed is read whole once and those bytes are the ones stored.
    private func register(_ files: [FileIdentity], batchID: Int64, into report: inout Report) throws {
        guard !files.isEmpty else { return }
        let known = try store.knownHashes(of: files)
        let keepsBytes = keepsBytes
        let results = Locked([Result<Hashed, LarderError>?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let result = Result { () throws(LarderError) -> Hashed in
                var hashed = Hashed(file: RegisteredFile(
                    path: file.path, sha256: known[file.path] ?? "", byteCount: file.byteCount, modifiedAt: file.modifiedAt))
                guard known[file.path] == nil else { return hashed }
                if keepsBytes {
                    let data = try Self.read(file.path)
                    hashed.file.sha256 = SHA256.hex(data)
                    hashed.bytes = data
                } else {
                    hashed.file.sha256 = try Self.hash(file.path)
                }
                return hashed
            }
            results.withLock { $0[index] = result }
        }
        var hashed: [Hashed] = []
        for result in results.withLock({ $0 }) {
            switch result! {
            case .success(let file): hashed.append(file)
            case .failure(let error):
                try store.recordInputError(batchID: batchID, path: error.path ?? "", error: error)
                report.errors.append(error.record)
            }
        }
        var files = hashed.map(\.file)
        if let bytesStore = store as? any DocumentBytesStore {
            files = try storeBytes(of: hashed, in: bytesStore, batchID: batchID, into: &report)
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

    /// A file of a chunk with its hash, and (with a store that keeps the bytes) the very bytes that were hashed.
    private struct Hashed: Sendable {
        var file: RegisteredFile
        var bytes: Data?
    }

    /// With a store that keeps the bytes (PostgreSQL): stores each file's bytes whose hash the store lacks, once
    /// per hash, before the file is registered, so no worker ever claims a document whose bytes are not there yet.
    /// The bytes stored are those that were hashed; a file known by its path, size and time (not hashed in this run)
    /// whose bytes are missing is read and hashed here, and becomes an input error if it cannot be read or its bytes
    /// are no longer the registered ones. Returns the files to register.
    private func storeBytes(
        of files: [Hashed], in bytesStore: any DocumentBytesStore, batchID: Int64, into report: inout Report
    ) throws -> [RegisteredFile] {
        var missing = try bytesStore.missingBytes(Array(Set(files.map(\.file.sha256))))
        var kept: [RegisteredFile] = []
        for item in files {
            let file = item.file
            guard missing.contains(file.sha256) else {
                kept.append(file)
                continue
            }
            let data: Data
            if let hashedBytes = item.bytes {
                data = hashedBytes
            } else {
                do {
                    data = try Self.read(file.path)
                } catch {
                    try store.recordInputError(batchID: batchID, path: file.path, error: error)
                    report.errors.append(error.record)
                    continue
                }
                guard SHA256.hex(data) == file.sha256 else {
                    let changed = LarderError(
                        .badInput, "the file changed while it was being registered",
                        hint: "ingest it again once nothing is writing to it", path: file.path)
                    try store.recordInputError(batchID: batchID, path: file.path, error: changed)
                    report.errors.append(changed.record)
                    continue
                }
            }
            try bytesStore.storeBytes([UInt8](data), sha256: file.sha256)
            missing.remove(file.sha256)
            kept.append(file)
        }
        return kept
    }

    private static func read(_ path: String) throws(LarderError) -> Data {
        do {
            return try FilePath.readAll(path)
        } catch {
            throw LarderError.wrap(error, kind: .unreadable, path: path)
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
        case skipped(Intake.Report.Skipped)
    }

    let maxFileBytes: Int64
    let ownFiles: OwnFiles
    /// The real paths of the paths given: a symlink met inside a folder is followed only into these; nil follows all.
    let roots: [String]?
    /// (device, inode) of folders entered, to stop at symlinked folder loops.
    private var visited = Set<[UInt64]>()

    init(maxFileBytes: Int64, ownFiles: OwnFiles = OwnFiles(), roots: [String]? = nil) {
        self.maxFileBytes = maxFileBytes
        self.ownFiles = ownFiles
        self.roots = roots
    }

    /// Walks a path given by the user (made absolute and standardised first).
    mutating func walk(_ path: String, _ visit: (Event) throws -> Void) throws {
        try walkAbsolute(URL(fileURLWithPath: path).standardizedFileURL.path, given: true, visit)
    }

    /// A path with every symlink resolved, or nil when it cannot be (missing, a loop).
    static func realPath(_ path: String) -> String? {
        guard let resolved = FilePath.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath.string(fromBytes: UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
    }

    /// Whether a symlink met inside a folder may be followed: its target lies inside a folder given.
    private func mayFollow(_ path: String, _ visit: (Event) throws -> Void) throws -> Bool {
        guard let roots else { return true }
        var link = stat()
        guard FilePath.withCString(path, { lstat($0, &link) }) == 0, link.st_mode & S_IFMT == S_IFLNK else { return true }
        // A broken link or a loop: `stat` below says so.
        guard let target = Self.realPath(path) else { return true }
        if roots.contains(where: { target == $0 || target.hasPrefix($0 == "/" ? "/" : $0 + "/") }) { return true }
        try visit(.skipped(.init(path: path, reason: .symlinkOutside, target: target)))
        return false
    }

    private mutating func walkAbsolute(_ absolute: String, given: Bool, _ visit: (Event) throws -> Void) throws {
        if !given, try !mayFollow(absolute, visit) { return }
        var info = stat()
        guard FilePath.withCString(absolute, { stat($0, &info) }) == 0 else {
            try visit(.error(Self.statError(path: absolute, errno: errno)))
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            if ownFiles.isOwnFolder(absolute, info) {
                try visit(.skipped(.init(path: absolute, reason: .larderFile)))
                return
            }
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
            // A recipe's photos are the recipe's, never documents (receipts) of their own: a Nextcloud Cookbook
            // folder's, a Chowdown site's `images/`, and the image under a `.cook` file's own name (`Pasta.cook` +
            // `Pasta.jpg`).
            let recipePhotos = Self.recipePhotos(among: names)
            for name in names where !name.hasPrefix(".") && !recipePhotos.contains(name) {
                try walkAbsolute(absolute == "/" ? "/" + name : absolute + "/" + name, given: false, visit)
            }
        case S_IFREG:
            if ownFiles.contains(absolute, info) || ownFiles.isInsideOwnFolder(absolute) {
                try visit(.skipped(.init(path: absolute, reason: .larderFile)))
                return
            }
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

    /// The names in a folder that are a recipe's photo: Nextcloud Cookbook's beside a `recipe.json`, a Chowdown
    /// site's `images` folder (beside its `_recipes`), and an image named as a `.cook` file is (Cooklang's convention, which Larder's Cooklang export follows). Not beside other
    /// files: a receipt photo's annotations are often `X.json` beside `X.jpg`.
    static func recipePhotos(among names: [String]) -> Set<String> {
        var photos: Set<String> = names.contains("recipe.json") ? nextcloudPhotos : []
        // A Chowdown (Jekyll) site: its `images/` are its recipes' photos (each names its own in `image:`).
        if names.contains("_recipes") { photos.insert("images") }
        var recipeStems = Set<String>()
        for name in names {
            let url = URL(fileURLWithPath: name)
            if url.pathExtension.lowercased() == "cook" { recipeStems.insert(url.deletingPathExtension().lastPathComponent) }
        }
        guard !recipeStems.isEmpty else { return photos }
        for name in names {
            let url = URL(fileURLWithPath: name)
            if ["jpg", "jpeg", "png", "webp", "gif"].contains(url.pathExtension.lowercased()),
                recipeStems.contains(url.deletingPathExtension().lastPathComponent)
            {
                photos.insert(name)
            }
        }
        return photos
    }

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

/// Larder's own files, which intake never registers nor opens: the checkpoint database and the LLM cache with their
/// `-wal`, `-shm` and `-journal` files, and the server's uploads folder (`<database>.uploads`: uploads and rendered
/// pages, registered by `larder serve` itself) with everything in it. Known by device and inode (any name or link for
/// them), and, for files and the folder that may appear after the walk began, by their real path.
struct OwnFiles {
    private var identities = Set<[UInt64]>()
    private var realPaths = Set<String>()
    /// The base names of `realPaths`: a file with another name needs no `realpath` call.
    private var names = Set<String>()
    private var folderIdentities = Set<[UInt64]>()
    private var folderRealPaths = Set<String>()

    init() {}

    init(config: PipelineConfig) {
        for base in [config.database, config.llmCachePath] {
            for path in [base, base + "-wal", base + "-shm", base + "-journal"] {
                if let info = Self.status(path) { identities.insert(Self.identity(info)) }
            }
            // The folder's real path and the name: the files need not exist yet.
            let folder = (base as NSString).deletingLastPathComponent
            if let real = Walker.realPath(folder.isEmpty ? "." : folder) {
                let name = (base as NSString).lastPathComponent
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    realPaths.insert(real + "/" + name + suffix)
                    names.insert(name + suffix)
                }
            }
        }
        let uploads = Intake.uploadsDirectory(forDatabase: config.database)
        if let info = Self.status(uploads) { folderIdentities.insert(Self.identity(info)) }
        let parent = (uploads as NSString).deletingLastPathComponent
        if let real = Walker.realPath(parent.isEmpty ? "." : parent) {
            folderRealPaths.insert(real + "/" + (uploads as NSString).lastPathComponent)
        }
    }


    private static func status(_ path: String) -> stat? {
        var info = stat()
        return FilePath.withCString(path, { stat($0, &info) }) == 0 ? info : nil
    }

    private static func identity(_ info: stat) -> [UInt64] { [UInt64(info.st_dev), UInt64(info.st_ino)] }

    /// The database, the LLM cache or one of their side files (not what is in the uploads folder: `detect` reads
    /// uploads).
    func contains(_ path: String, _ info: stat) -> Bool {
        if identities.contains(Self.identity(info)) { return true }
        guard names.contains((path as NSString).lastPathComponent) else { return false }
        return Walker.realPath(path).map { realPaths.contains($0) } ?? false
    }

    /// The uploads folder itself (by device and inode, or by real path when it was made after the walk began).
    func isOwnFolder(_ path: String, _ info: stat) -> Bool {
        if folderIdentities.contains(Self.identity(info)) { return true }
        return !folderRealPaths.isEmpty && (Walker.realPath(path).map { folderRealPaths.contains($0) } ?? false)
    }

    /// A file inside the uploads folder, however it was named (a symlink to it, a path given directly).
    func isInsideOwnFolder(_ path: String) -> Bool {
        guard !folderRealPaths.isEmpty || !folderIdentities.isEmpty, let real = Walker.realPath(path) else { return false }
        let folder = (real as NSString).deletingLastPathComponent
        guard let info = Self.status(folder) else { return false }
        return isOwnFolder(folder, info)
    }
}
