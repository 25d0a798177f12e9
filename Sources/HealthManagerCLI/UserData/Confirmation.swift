import Foundation

/// Asks a yes/no question on the command's I/O. Only "y" or "yes" is a yes; anything else, and
/// input that ended (a script without --yes), is a no — a destructive step never happens by default.
enum Confirmation {
    static func ask(_ question: String, io: CommandIO) -> Bool {
        io.output.write(question + " [y/N] ")
        guard let answer = io.input.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else {
            io.output.writeLine()
            return false
        }
        return answer == "y" || answer == "yes"
    }
}
