/// The probe runs the suites share. Each runs once per test process: the
/// escapes are many assertions on one confined process, not one process per
/// assertion.
enum ProbeRuns {
    /// Confined with the policy of `SandboxProbe`, best-effort Landlock.
    static let confined = Result { try SandboxProbe.run() }

    /// The same attempts without confinement, to show each would succeed.
    static let control = Result { try SandboxProbe.run(confined: false) }

    /// Confined 17 times: Landlock allows 16 nested layers, so the last round
    /// fails in its Landlock step, after its earlier steps took effect.
    static let overConfined = Result { try SandboxProbe.run(extraArguments: ["--confinements", "17"]) }
}
