import HealthWire

extension HealthCtl {
    /// The program's arguments as the kernel gave them (bytes), checked with the wire's text
    /// rule (`WireText`) before anything else: Swift's `CommandLine.arguments` would replace
    /// invalid UTF-8 with U+FFFD, and a replaced name or unit would silently mean something
    /// else. A bad argument is a usage error naming its position and byte.
    public static func execute(rawArguments: [[UInt8]]) async -> Int32 {
        var arguments: [String] = []
        for (index, bytes) in rawArguments.enumerated() {
            if let problem = WireText.problem(in: bytes) {
                CommandIO.current.errors.writeLine(ErrorLines.line("argument \(index + 1) \(problem); arguments must be UTF-8 text"))
                return HealthCtlExitCode.usage.rawValue
            }
            arguments.append(String(decoding: bytes, as: UTF8.self))
        }
        return await execute(arguments)
    }
}
