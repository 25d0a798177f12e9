public import Foundation

/// The reference data beside the repository (../shared, which CI lays next to the checkout):
/// real Apple Health exports from other projects' test suites, each folder's SOURCE.txt naming
/// where it came from. Found from this file's place in the repository, so tests read them
/// wherever the checkout lives.
public enum SharedFixtures {
    public static let appleHealth: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()      // TestSupport
        .deletingLastPathComponent()      // Tests
        .deletingLastPathComponent()      // the repository
        .deletingLastPathComponent()      // its parent, which holds shared/
        .appendingPathComponent("shared/fixtures/apple-health")
}
