import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// A grant's window and expiry cross the admin socket intact; an ordinary grant stays the same
/// bytes as before temporary grants existed (both fields zero, so not encoded).
@Suite(.timeLimit(.minutes(10))) struct TemporaryGrantMessagesTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    @Test func limitsRoundTrip() throws {
        let grants = [
            GrantDecision(Self.heartRate, .read, .authorized,
                          limits: GrantLimits(dataWindow: 30 * 86_400, expiry: Date(microsecondsSince1970: 1_700_000_000_250_000))),
            GrantDecision(Self.heartRate, .share, .authorized, limits: GrantLimits(expiry: Date(microsecondsSince1970: 1_700_000_001_000_000))),
            GrantDecision("HKQuantityTypeIdentifierStepCount", .read, .denied),
        ]
        #expect(try AppGrants(wire: AppGrants(appID: "org.app", decisions: grants).wireBytes()).decisions == grants)
        #expect(try GrantList(wire: GrantList(grants).wireBytes()).grants == grants)
    }

    @Test func anOrdinaryGrantEncodesNoLimitFields() {
        let plain = GrantList([GrantDecision(Self.heartRate, .read, .authorized)]).wireBytes()
        let windowed = GrantList([GrantDecision(Self.heartRate, .read, .authorized, limits: GrantLimits(dataWindow: 1))]).wireBytes()
        #expect(windowed.count > plain.count)
        #expect(!plain.contains(4 << 3))  // no field 4 (window_us) tag
    }

    @Test func aNegativeWindowIsRefused() throws {
        var bytes = GrantList([GrantDecision(Self.heartRate, .read, .authorized, limits: GrantLimits(dataWindow: 1))]).wireBytes()
        // window_us = 1_000_000 encodes as varint 0xC0 0x84 0x3D after tag 0x20; make it -1.
        guard let tag = bytes.firstIndex(of: 4 << 3) else { Issue.record("no window field"); return }
        bytes.replaceSubrange((tag + 1)...(tag + 3), with: [UInt8](repeating: 0xFF, count: 9) + [0x01])
        bytes[1] = UInt8(bytes.count - 2)  // the GrantDecision's length (it is the only one)
        #expect(throws: WireDecodeError.self) { try GrantList(wire: bytes) }
    }
}
