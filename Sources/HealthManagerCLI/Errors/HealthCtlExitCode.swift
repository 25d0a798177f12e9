/// healthctl's exit statuses, from BSD's sysexits.h so scripts can tell a usage mistake from a
/// broker that is not running. ArgumentParser's own parse and validation failures exit 64 too.
public enum HealthCtlExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    /// Something not covered below.
    case failure = 1
    /// EX_USAGE: the command line is wrong.
    case usage = 64
    /// EX_DATAERR: the input was read but is wrong (an invalid manifest; healthd refused the values).
    case dataError = 65
    /// EX_NOINPUT: an input file could not be read, or stdin ended before a question was answered.
    case noInput = 66
    /// EX_UNAVAILABLE: healthd cannot be reached, or the connection to it was lost.
    case unavailable = 69
    /// EX_SOFTWARE: healthd answered something healthctl cannot decode (mismatched versions).
    case software = 70
    /// EX_CANTCREAT: an output file could not be created (`healthctl export`).
    case cannotCreate = 73
    /// EX_TEMPFAIL: `--wait` timed out; trying again later may succeed.
    case timedOut = 75
    /// EX_NOPERM: healthd refused the caller.
    case noPermission = 77
}
