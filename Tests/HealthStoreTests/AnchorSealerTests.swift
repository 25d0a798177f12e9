import Foundation
import GRDB
import Testing

@testable import HealthStore

/// Anchors: sealed cursors that only the issuing store, for the same app and type, can open.
@Suite(.timeLimit(.minutes(10))) struct AnchorSealerTests {
    static let app = "org.example.reader"
    static let type = "HKQuantityTypeIdentifierStepCount"

    static func sealer() throws -> AnchorSealer {
        try HealthDatabase(writer: DatabaseQueue()).changeFeed.anchors
    }

    @Test func opensWhatItSealed() throws {
        let sealer = try Self.sealer()
        for cursor in [ChangeCursor.origin, ChangeCursor(change: 42, table: .deletedObjects, row: 7),
                       ChangeCursor(completeThrough: Int64.max)] {
            let anchor = try sealer.seal(cursor, appID: Self.app, typeIdentifier: Self.type)
            #expect(sealer.open(anchor, appID: Self.app, typeIdentifier: Self.type) == cursor)
        }
    }

    @Test func anchorsHaveOneLengthAndNeverRepeat() throws {
        let sealer = try Self.sealer()
        let cursors = [ChangeCursor.origin, ChangeCursor(change: 1, table: .objects, row: 1), ChangeCursor(completeThrough: 1 << 40)]
        let anchors = try cursors.map { try sealer.seal($0, appID: Self.app, typeIdentifier: Self.type) }
        #expect(Set(anchors.map(\.count)) == [AnchorSealer.anchorLength])
        // The same cursor twice: a fresh nonce each time, so an unchanged position is not visible.
        let again = try sealer.seal(cursors[0], appID: Self.app, typeIdentifier: Self.type)
        #expect(again != anchors[0])
        #expect(again.count == anchors[0].count)
    }

    @Test func refusesAnotherAppsOrAnotherTypesAnchor() throws {
        let sealer = try Self.sealer()
        let anchor = try sealer.seal(ChangeCursor(completeThrough: 5), appID: Self.app, typeIdentifier: Self.type)
        #expect(sealer.open(anchor, appID: "org.example.other", typeIdentifier: Self.type) == nil)
        #expect(sealer.open(anchor, appID: Self.app, typeIdentifier: "HKQuantityTypeIdentifierHeartRate") == nil)
        // The fields are length-prefixed: moving characters between them changes the binding.
        #expect(sealer.open(anchor, appID: Self.app + "H", typeIdentifier: String(Self.type.dropFirst())) == nil)
    }

    @Test func refusesEveryAlteredBitAndEveryWrongLength() throws {
        let sealer = try Self.sealer()
        let anchor = try sealer.seal(ChangeCursor(change: 9, table: .objects, row: 3), appID: Self.app, typeIdentifier: Self.type)
        for index in anchor.indices {
            for bit in 0..<8 {
                var altered = anchor
                altered[index] ^= UInt8(1 << bit)
                #expect(sealer.open(altered, appID: Self.app, typeIdentifier: Self.type) == nil, "byte \(index) bit \(bit)")
            }
        }
        #expect(sealer.open(Array(anchor.dropLast()), appID: Self.app, typeIdentifier: Self.type) == nil)
        #expect(sealer.open(anchor + [0], appID: Self.app, typeIdentifier: Self.type) == nil)
        #expect(sealer.open([], appID: Self.app, typeIdentifier: Self.type) == nil)
    }

    @Test func anotherStoresAnchorDoesNotOpen() throws {
        let anchor = try Self.sealer().seal(.origin, appID: Self.app, typeIdentifier: Self.type)
        #expect(try Self.sealer().open(anchor, appID: Self.app, typeIdentifier: Self.type) == nil)
    }

    @Test func anchorsSurviveClosingAndReopeningTheEncryptedStore() throws {
        let directory = TemporaryDirectory()
        let cursor = ChangeCursor(change: 12, table: .objects, row: 34)
        var store = try EncryptedDatabase.open(directory: directory.path)
        let anchor = try HealthDatabase(writer: store.writer).changeFeed.anchors.seal(cursor, appID: Self.app, typeIdentifier: Self.type)
        try store.close()
        store = try EncryptedDatabase.open(directory: directory.path)
        let reopened = try HealthDatabase(writer: store.writer).changeFeed.anchors
        #expect(reopened.open(anchor, appID: Self.app, typeIdentifier: Self.type) == cursor)
        try store.close()
    }
}
