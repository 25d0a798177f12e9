/// The unprivileged uids (and gids, the same numbers) that apps launched by root run as, one
/// per app id. healthd assigns them (`AppRepository.sandboxUID`), `health-sandbox run` learns
/// an app's number with its launch binding and refuses any number outside this range, so a
/// broker bug can never make it run an app as root or as a real account.
///
/// The range lies in the block systemd leaves unused (0x70000000 and up, below its "foreign"
/// range 0x7FFE0000; `UIDS-GIDS.md`): no distribution allocates accounts, dynamic users,
/// homed users or container ranges there, so an app's uid owns no file but the app's own.
public enum AppSandboxIDRange {
    public static let first: UInt32 = 0x7000_0000
    /// How many apps can ever be assigned a number on one store; numbers are never reused.
    public static let count: UInt32 = 0x1_0000

    public static var last: UInt32 { first + count - 1 }

    public static func contains(_ id: UInt32) -> Bool { id >= first && id <= last }
}
