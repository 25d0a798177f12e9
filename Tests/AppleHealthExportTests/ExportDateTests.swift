import AppleHealthExport
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct ExportDateTests {
    @Test func bothExportFormsParseToTheSameInstant() {
        // 2016-04-18 08:25:32 -0700 is 15:25:32 UTC.
        let expected = Date(timeIntervalSince1970: 1_460_993_132)
        #expect(ExportDate.parse("2016-04-18 08:25:32 -0700") == expected)
        #expect(ExportDate.parse("20160418082532-0700") == expected)  // iOS 8's compact form
        #expect(ExportDate.parse("2016-04-18 15:25:32 +0000") == expected)
        #expect(ExportDate.parse("2016-04-19 00:55:32 +0930") == expected)
    }

    @Test func leapDaysAndCenturiesFollowTheGregorianCalendar() {
        #expect(ExportDate.parse("2024-02-29 00:00:00 +0000") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(ExportDate.parse("2023-02-29 00:00:00 +0000") == nil)
        #expect(ExportDate.parse("1900-02-29 00:00:00 +0000") == nil)
        #expect(ExportDate.parse("2000-02-29 00:00:00 +0000") == Date(timeIntervalSince1970: 951_782_400))
        #expect(ExportDate.parse("1969-12-31 23:59:59 +0000") == Date(timeIntervalSince1970: -1))
    }

    @Test func anythingElseIsRefusedNotRolledOver() {
        for text in ["", "2016-04-18", "2016-13-01 00:00:00 +0000", "2016-04-31 00:00:00 +0000",
                     "2016-04-18 24:00:00 +0000", "2016-04-18 08:60:00 +0000", "2016-04-18 08:25:32 0700",
                     "2016-04-18T08:25:32 -0700", "2016-04-18 08:25:32 -07:00", "2O16-04-18 08:25:32 -0700",
                     "2016-04-18 08:25:32 +1500", "2016-04-18 08:25:32 -0700 "] {
            #expect(ExportDate.parse(text) == nil, "\(text)")
        }
    }
}
