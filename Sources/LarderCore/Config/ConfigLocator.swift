import Foundation

/// Where the configuration and database come from: `--config PATH` if given, else `./pipeline.yml` if present,
/// else the built-in defaults; `--db PATH` overrides the `database` key.
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
        if let databasePath { config.database = databasePath }
        config.database = URL(fileURLWithPath: config.database).standardizedFileURL.path
        return config
    }
}
