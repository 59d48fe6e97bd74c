import Foundation

/// Where the configuration and database come from: `--config PATH` if given, else `./pipeline.yml` if present,
/// else the built-in defaults. The store: `--db`, else `LARDER_DB`, else `store.url`/`database` in the file; each may
/// be an SQLite path or a `postgres://` URL. `LARDER_LEASE_TTL` (seconds) overrides `queue.lease_ttl`.
public enum ConfigLocator {
    public static func resolve(configPath: String?, databasePath: String?) throws -> PipelineConfig {
        var config: PipelineConfig
        if let configPath {
            config = try PipelineConfig.load(path: configPath)
        } else if FileManager.default.fileExists(atPath: "pipeline.yml") {
            config = try PipelineConfig.load(path: "pipeline.yml")
        } else {
            config = PipelineConfig()
        }
        let environment = ProcessInfo.processInfo.environment
        if let databasePath {
            config.database = databasePath
        } else if let fromEnvironment = environment["LARDER_DB"], !fromEnvironment.isEmpty {
            config.database = fromEnvironment
        }
        if let ttl = environment["LARDER_LEASE_TTL"] {
            guard let seconds = Double(ttl), seconds >= 3, seconds <= 86_400 else {
                throw LarderError(
                    .configuration, "LARDER_LEASE_TTL must be a number of seconds from 3 to 86400, not '\(ttl)'",
                    hint: "unset it to use queue.lease_ttl from pipeline.yml (default 60)")
            }
            config.leaseTTL = seconds
        }
        // A PostgreSQL URL is checked here (a bad one fails before anything opens); a path is made absolute.
        if case .sqlite(let path) = try StoreLocation.parse(config.database) { config.database = path }
        return config
    }
}
