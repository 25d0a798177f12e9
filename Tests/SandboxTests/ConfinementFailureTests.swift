import CSandbox
import HealthSandboxKit
import Testing

/// A request that cannot be met fails with -1 and a message naming the step,
/// and a failure is never reported as success.
@Suite("Confinement failures are reported, not hidden", .timeLimit(.minutes(10)))
struct ConfinementFailureTests {
    // These call ohk_confine in the test process itself: each request fails
    // while being checked, before the process changes, which is what they verify.

    @Test("A missing Landlock path fails before anything is applied",
          .enabled(if: KernelFeatures.hasLandlock, "needs Landlock (Linux 5.13 with lsm=landlock)"))
    func missingPath() throws {
        let request = Confinement(readExecutePaths: ["/nonexistent/ohk-sandbox-test"], minimumLandlockABI: 1)
        let outcome = request.confineCallingThread()
        #expect(!outcome.succeeded)
        #expect(outcome.message ==
            "landlock: cannot open read_exec path '/nonexistent/ohk-sandbox-test': No such file or directory")
        #expect(outcome.report.applied_steps == 0)
        #expect(try !ThreadState.hasNoNewPrivs())
    }

    @Test("A Landlock ABI above the kernel's fails and says both versions",
          .enabled(if: KernelFeatures.hasLandlock, "needs Landlock (Linux 5.13 with lsm=landlock)"))
    func landlockTooOld() throws {
        let outcome = Confinement(minimumLandlockABI: 99).confineCallingThread()
        #expect(!outcome.succeeded)
        #expect(outcome.message ==
            "landlock: the kernel has Landlock ABI \(KernelFeatures.landlockABI), the policy requires ABI 99")
        #expect(outcome.report.applied_steps == 0)
        #expect(try !ThreadState.hasNoNewPrivs())
    }

    @Test("A descriptor to keep that is not open fails in the fds step")
    func keptDescriptorNotOpen() throws {
        let outcome = Confinement(keepDescriptors: [1_000_000]).confineCallingThread()
        #expect(!outcome.succeeded)
        #expect(outcome.message == "fds: fd 1000000 to keep is not open: Bad file descriptor")
        #expect(outcome.report.applied_steps == 0)
        #expect(try !ThreadState.hasNoNewPrivs())
    }

    @Test("A failure after some steps took effect says which, and still fails",
          .enabled(if: KernelFeatures.hasLandlock, "needs Landlock (Linux 5.13 with lsm=landlock)"))
    func failureAfterPartialConfinement() throws {
        let run = try ProbeRuns.overConfined.get()
        #expect(run["confine"] == "failed (landlock: cannot enforce the ruleset: Argument list too long)",
                "\(run.transcript)")
        #expect(run["confine_rounds"] == "17", "\(run.transcript)")
        let stepsBeforeLandlock = OHK_STEP_RLIMITS.rawValue | OHK_STEP_FDS.rawValue
            | OHK_STEP_NO_NEW_PRIVS.rawValue | OHK_STEP_NOT_DUMPABLE.rawValue
        #expect(run["applied_steps"] == "0x" + String(stepsBeforeLandlock, radix: 16), "\(run.transcript)")
        // The probe stops at a failed confinement, as health-sandbox must:
        // no escape was attempted and nothing was executed.
        #expect(run.exitStatus == 3, "\(run.transcript)")
        #expect(run["inet_socket"] == nil, "\(run.transcript)")
        #expect(run["after_exec.exec_self"] == nil, "\(run.transcript)")
    }
}
