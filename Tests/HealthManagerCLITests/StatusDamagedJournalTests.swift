import Foundation
import HealthModel
import HealthWire
import Testing

@testable import HealthManagerCLI

/// The damaged pending journals healthd lists in its status (field 98) reach `healthctl status`
/// as healthd sent them, shown and never obeyed: a path or note holding control characters or
/// a quote is escaped on the terminal and quoted for the shell in the `rm` the user is offered.
@Suite(.timeLimit(.minutes(10))) struct StatusDamagedJournalTests {
    func status(_ journals: [DamagedPendingJournal]) -> BrokerStatus {
        BrokerStatus(storeDirectory: "/s", appSocket: "/a", adminSocket: "/m", installedApps: 0, pendingRequests: 0,
                     connectedApps: 0, sampleCount: 0, version: "0", damagedJournals: journals)
    }

    @Test func journalsRoundTripAndAreShownWithWhatToDo() throws {
        let kept = Date(timeIntervalSince1970: 1_800_000_000)
        let journals = [
            DamagedPendingJournal(path: "/s/pending-3.journal.damaged", bytes: 4_812, kept: kept,
                                        lost: "entry 2 failed authentication; and 1 more"),
            DamagedPendingJournal(path: "/s/it's\u{1B}[2J.damaged", bytes: 0, kept: nil, lost: "a\nb\u{202E}"),
        ]
        let received = try BrokerStatus(wire: status(journals).wireBytes())
        #expect(received.damagedJournals == journals)
        let text = StatusCommand.render(received)
        #expect(text.contains("Damaged journals: 2 kept"), "\(text)")
        #expect(text.contains("/s/pending-3.journal.damaged (4812 bytes, kept "), "\(text)")
        #expect(text.contains("lost: entry 2 failed authentication; and 1 more"), "\(text)")
        #expect(text.contains("rm '/s/pending-3.journal.damaged' '/s/pending-3.journal.damaged.lost'"), "\(text)")
        // The hostile one: escaped, one row per line, quoted so `rm` gets the one path.
        #expect(!text.contains("\u{1B}") && !text.contains("\u{202E}") && !text.contains("a\nb"), "\(text)")
        #expect(text.contains(#"rm '/s/it'\''s\u{1B}[2J.damaged'"#), "\(text)")
        #expect(!StatusCommand.render(try BrokerStatus(wire: status([]).wireBytes())).contains("Damaged"))
    }

    @Test func moreThanHealthdListsIsRefusedOnTheWire() throws {
        let many = (0...DamagedPendingJournal.maxListed).map {
            DamagedPendingJournal(path: "/s/pending-\($0).journal.damaged", bytes: 1, kept: nil, lost: "")
        }
        // healthd sends at most `maxListed`; the encoder keeps that bound too.
        let received = try BrokerStatus(wire: status(many).wireBytes())
        #expect(received.damagedJournals.count == DamagedPendingJournal.maxListed)
    }
}
