import Testing

/// The probe's attempts without confinement: each succeeds, so the escape
/// tests fail if confinement stops working rather than pass by accident.
/// Only attempts that succeed for any user on any Linux are listed; kcmp,
/// clone3 or io_uring may be refused by a container runtime's own filter.
@Suite("Unconfined, the probe's escapes succeed", .timeLimit(.minutes(10)))
struct ControlRunTests {
    let run: ProbeRun

    init() throws {
        run = try ProbeRuns.control.get()
    }

    @Test("The control run is not confined")
    func notConfined() {
        #expect(run["confine"] == "skipped", "\(run.transcript)")
        #expect(run["no_new_privs"] == "0", "\(run.transcript)")
    }

    @Test("Each escape the confined run is denied succeeds here",
          arguments: ["inet_socket", "inet6_socket", "ptrace_traceme", "process_vm_readv_sleeper",
                      "read_secret", "list_outside_dir", "write_outside", "write_read_only_dir",
                      "exec_outside", "exec_written_file",
                      "after_exec.exec_self", "after_exec.inet_socket", "after_exec.read_secret"])
    func escapeSucceeds(attempt: String) {
        #expect(run[attempt].map { $0 == "allowed" || $0 == "ok" } == true, "\(run.transcript)")
    }

    @Test("Without confinement a stray descriptor reaches the exec'd program")
    func strayDescriptorInherited() {
        #expect(run["stray_fd"] == "inherited", "\(run.transcript)")
        #expect(run["after_exec.stray_fd"] == "inherited", "\(run.transcript)")
    }
}
