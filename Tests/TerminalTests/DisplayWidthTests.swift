import Testing
@testable import Terminal

@Suite("display width, fitting and number formatting")
struct DisplayWidthTests {
    @Test("ASCII, CJK, combining marks, emoji, controls and escapes")
    func widths() {
        #expect(displayWidth("") == 0)
        #expect(displayWidth("N") == 1)
        #expect(displayWidth("123.4°M") == 7)
        #expect(displayWidth("北") == 2)
        #expect(displayWidth("东北 NE") == 7)
        #expect(displayWidth("ｘ") == 2)                 // fullwidth Latin
        #expect(displayWidth("한글") == 4)
        #expect(displayWidth("e\u{301}") == 1)           // e + combining acute
        #expect(displayWidth("\u{1F9ED}") == 2)          // 🧭 compass emoji
        #expect(displayWidth("a\u{200D}b") == 2)          // zero-width joiner
        #expect(displayWidth("⠁⣿▼│…") == 5)              // braille, shapes, box drawing, ellipsis
        #expect(displayWidth("\u{1B}[0;1;31mSE\u{1B}[0m") == 2)
        #expect(displayWidth("a\tb\u{7}") == 2)           // controls take no cells
        #expect(displayWidth(Substring("北京")) == 4)
    }

    @Test("fitToWidth pads and cuts by display cells, never splitting a wide character")
    func fitting() {
        #expect(fitToWidth("N", 3) == "N  ")
        #expect(fitToWidth("北东", 4) == "北东")
        #expect(fitToWidth("北东南", 4) == "北… ")
        #expect(displayWidth(fitToWidth("北东南", 4)) == 4)
        #expect(fitToWidth("Declination", 6) == "Decli…")
        #expect(fitToWidth("abc", 0) == "")
        for width in 1...12 {
            #expect(displayWidth(fitToWidth("磁偏角 declination 北", width)) == width)
        }
    }

    @Test("canvas writes keep wide characters whole and lines exact")
    func canvas() {
        var canvas = Canvas(columns: 6, rows: 2, ascii: false)
        canvas.write("北京abc", x: 0, y: 0)
        #expect(canvas.lines(color: false)[0] == "北京a…")
        canvas.write("N", x: 1, y: 0)                     // lands on the right half of 北
        #expect(canvas.lines(color: false)[0] == " N京a…")
        canvas.write("东", x: 5, y: 1)                     // no room for two cells: cut to an ellipsis
        #expect(canvas.lines(color: false)[1] == "     …")
        canvas.put("西", width: 2, x: 5, y: 1)             // a wide put at the edge becomes a space
        #expect(canvas.lines(color: false)[1] == "      ")
        for line in canvas.lines(color: true) { #expect(displayWidth(line) == 6) }
    }

    @Test("ASCII mode folds everything to printable ASCII")
    func asciiFolding() {
        #expect(asciiFold("123.4°M ±2.5° 57 µT") == "123.4dM +-2.5d 57 uT")
        #expect(asciiFold("北 N") == "?? N")
        var canvas = Canvas(columns: 10, rows: 1, ascii: true)
        canvas.write("北东 ok°", x: 0, y: 0)
        let line = canvas.lines(color: false)[0]
        #expect(line.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
        #expect(line.count == 10)
    }

    @Test("fixed-point formatting rounds, signs and wraps headings")
    func numbers() {
        #expect(NumberFormat.signed(1.2, 1) == "+1.2")
        #expect(NumberFormat.signed(-0.5, 1) == "-0.5")
        #expect(NumberFormat.signed(0.01, 1) == "0.0")
        #expect(NumberFormat.heading(359.96) == "0.0")
        #expect(NumberFormat.heading(359.6) == "359.6")
        #expect(NumberFormat.heading(-90) == "270.0")
        #expect(NumberFormat.heading(.infinity) == "---.-")
        #expect(NumberFormat.paddedHeading(7.5) == "  7.5")
        #expect(NumberFormat.hex(13) == "0x0d")
    }
}
