/// The calling thread's confinement state, read back from the kernel.
enum ThreadState {
    /// The calling thread's no_new_privs flag, from /proc/thread-self (the flag is per thread;
    /// /proc/self would show the main thread's).
    static func hasNoNewPrivs() throws -> Bool {
        let status = try ProcFile.contents(of: "/proc/thread-self/status")
        let line = status.split(separator: "\n").first { $0.hasPrefix("NoNewPrivs:") }
        return line?.hasSuffix("1") ?? false
    }
}
