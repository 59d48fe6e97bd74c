import Foundation
import LarderCore

/// The one place a command or the worker opens its checkpoint store: the SQLite file or the PostgreSQL database
/// that `--db`, `LARDER_DB` or pipeline.yml (`store.url`, `database`) names (``ConfigLocator``).
public enum StoreOpener {
    /// Opens the store `config.database` names. `readOnly` opens an SQLite file read-only (status, show, export);
    /// a PostgreSQL store is opened as it is (what the user may do is the server's to say).
    public static func open(_ config: PipelineConfig, readOnly: Bool = false) throws -> any ServiceStore {
        switch try config.storeLocation {
        case .sqlite(let path): return try SQLiteCheckpointStore(path: path, readOnly: readOnly)
        case .postgres(let location): return try PostgresCheckpointStore(location: location)
        }
    }

    /// Names the `larder-worker` this process is about to start in the environment it inherits
    /// (`LARDER_WORKER_ID`), so that this process's store and its worker's claims agree on whose stages they are.
    public static func nameWorkerForChildren() {
        if ProcessInfo.processInfo.environment["LARDER_WORKER_ID"] == nil {
            setenv("LARDER_WORKER_ID", ClaimState.defaultWorkerID(), 1)
        }
    }
}
