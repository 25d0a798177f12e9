import HealthManagerCLI
import Testing

/// `add`, `delete`, `export`, `report` and `apps remove` command lines refused before anything
/// is sent (exit 64), each with what to change. No socket exists at the path given.
@Suite(.timeLimit(.minutes(10))) struct UserDataArgumentTests {
    static let socket = ["--socket", "/nonexistent/admin.sock"]

    @Test(arguments: [
        (["add", "bodyMass", "72", "count/min"], "count/min does not measure Body Mass; use a unit like kg"),
        (["add", "bodyMass", "72"], "Body Mass needs a unit after the value, such as kg"),
        (["add", "bodyMass", "seventy", "kg"], "seventy is not a number"),
        (["add", "bodyMass", "nan", "kg"], "nan is not a number"),
        (["add", "bodyMass", "72", "kgg"], "kgg is not a unit"),
        (["add", "sleepAnalysis", "dreaming"], "dreaming is not a value of Sleep Analysis; use asleep"),
        (["add", "sleepAnalysis", "inBed", "h"], "Sleep Analysis samples have no unit"),
        (["add", "heartRate", "60", "count/min", "--start", "2024-05-02", "--end", "2024-05-01T10:00"], "is before --start"),
        (["add", "heartRate", "60", "count/min", "--metadata", "HKWasUserEntered=maybe"], "--metadata HKWasUserEntered takes true or false"),
        (["add", "heartRate", "60", "count/min", "--metadata", "HKNoSuchKey=1"], "keys starting with HK are reserved"),
        (["add", "heartRate", "60", "count/min", "--metadata", "=1"], "write it as KEY=VALUE"),
        (["add", "workout", "30", "min"], "cannot be added here"),
        (["delete"], "give the UUIDs of the samples to delete, or --type and/or --source"),
        (["delete", "not-a-uuid"], "not-a-uuid is not a UUID"),
        (["delete", "0190f1c2-7a3b-7c4d-8e5f-0123456789ab", "--type", "heartRate"], "give the UUIDs of the samples to delete, or --type and/or --source"),
        (["delete", "--type", "heartRate", "--from", "2024-05-02", "--to", "2024-05-01"], "is not before --to"),
        (["delete", "--type", "dateOfBirth"], "is not a sample type"),
        (["export", "out.zip", "--types", "dateOfBirth"], "cannot be exported on its own"),
        (["export", "out.zip", "--types", "HKWorkoutRouteTypeIdentifier"], "routes go with their workouts"),
        (["export", "out.zip", "--format", "xls"], "xls"),
        (["report", "--html", "r.html", "--from", "2024-05-02", "--to", "2024-05-01"], "is not before --to"),
        (["apps", "remove", "org.example.x", "--delete-data", "--keep-data"], "contradict each other"),
    ])
    func refused(arguments: [String], message: String) async {
        let outcome = await runHealthCtl(arguments + Self.socket)
        #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue, "\(outcome.errors)")
        #expect(outcome.errors.contains(message), "\(outcome.errors)")
    }

    /// A valid entry passes validation and only then fails to reach healthd (69, not 64): a day
    /// given to --end is its end, after a start the evening before.
    @Test func aValidAddGetsPastValidation() async {
        let outcome = await runHealthCtl(["add", "sleepAnalysis", "asleepCore", "--start", "2024-05-01T23:00", "--end", "2024-05-02"] + Self.socket)
        #expect(outcome.exitCode == HealthCtlExitCode.unavailable.rawValue, "\(outcome.errors)")
    }
}
