import Foundation
import LarderCore

/// Every line `larder` prints to standard output goes through here (it shadows `Swift.print` in this module), so a
/// control character in a title, a path or a message reaches the terminal escaped (``TerminalText/safe(_:)``).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(TerminalText.safe(items.map { "\($0)" }.joined(separator: separator)), terminator: terminator)
}
