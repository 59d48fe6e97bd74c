import ArgumentParser
import Testing

@testable import larder

/// Every `larder` command names itself. Without `commandName`, ArgumentParser derives the name through
/// `String(describing: Self.self)`, whose protocol-conformance lookups scan every conformance record of the binary:
/// 20.6 M of `larder --help`'s 56.2 M instructions before the commands were named (README, issue 18, tenth round).
@Suite("larder: start-up")
struct CommandNameTests {
    @Test func everyCommandNamesItself() {
        var unnamed: [String] = []
        var seen = 0
        func visit(_ command: any ParsableCommand.Type) {
            seen += 1
            if command.configuration.commandName == nil { unnamed.append("\(command)") }
            for subcommand in command.configuration.subcommands { visit(subcommand) }
        }
        visit(Larder.self)
        #expect(seen > 20, "the command tree has \(seen) commands")
        #expect(unnamed.isEmpty, "commands without commandName: \(unnamed)")
    }
}
