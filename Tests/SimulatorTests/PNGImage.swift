/// A PNG read into RGBA pixels, for checking a browser's screenshot: 8-bit RGB or RGBA,
/// non-interlaced (what Chromium writes). The zlib stream is inflated here (DEFLATE, RFC 1951),
/// since the toolchain has no decompressor on Linux.
struct PNGImage {
    let width: Int
    let height: Int
    /// RGBA, row by row.
    let pixels: [UInt8]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(_ data: [UInt8]) throws {
        guard data.count > 8, data[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure(description: "not a PNG") }
        var i = 8, w = 0, h = 0, colorType = 0, idat: [UInt8] = []
        func be32(_ at: Int) -> Int { Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3]) }
        while i + 8 <= data.count {
            let length = be32(i), type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            guard i + 12 + length <= data.count else { throw Failure(description: "truncated chunk \(type)") }
            let body = i + 8
            switch type {
            case "IHDR":
                w = be32(body); h = be32(body + 4)
                colorType = Int(data[body + 9])
                guard data[body + 8] == 8, colorType == 2 || colorType == 6, data[body + 12] == 0 else {
                    throw Failure(description: "unsupported PNG (depth \(data[body + 8]), color type \(colorType), interlace \(data[body + 12]))")
                }
            case "IDAT": idat += data[body..<(body + length)]
            default: break
            }
            i += 12 + length
        }
        guard idat.count > 2 else { throw Failure(description: "no image data") }
        var inflater = Inflater(Array(idat.dropFirst(2)))
        let raw = try inflater.run()
        let channels = colorType == 6 ? 4 : 3, stride = w * channels
        guard raw.count >= h * (stride + 1) else { throw Failure(description: "image data too short") }
        var out = [UInt8](repeating: 255, count: w * h * 4)
        var prev = [UInt8](repeating: 0, count: stride), line = [UInt8](repeating: 0, count: stride)
        for y in 0..<h {
            let filter = raw[y * (stride + 1)], row = y * (stride + 1) + 1
            for x in 0..<stride {
                let a = x >= channels ? Int(line[x - channels]) : 0, b = Int(prev[x]), c = x >= channels ? Int(prev[x - channels]) : 0
                let v = Int(raw[row + x])
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw Failure(description: "bad filter \(filter)")
                }
                line[x] = UInt8((v + predicted) & 0xFF)
            }
            for x in 0..<w {
                for ch in 0..<channels { out[(y * w + x) * 4 + ch] = line[x * channels + ch] }
            }
            swap(&prev, &line)
        }
        width = w
        height = h
        pixels = out
    }

    /// The pixel at (`x`, `y`): red, green, blue.
    func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 4
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }
}

/// DEFLATE decoding (stored, fixed and dynamic Huffman blocks).
private struct Inflater {
    let input: [UInt8]
    var pos = 0, bit = 0
    var out: [UInt8] = []

    init(_ input: [UInt8]) { self.input = input }

    mutating func bits(_ n: Int) throws -> Int {
        var v = 0
        for k in 0..<n {
            guard pos < input.count else { throw PNGImage.Failure(description: "inflate: out of data") }
            v |= Int((input[pos] >> UInt8(bit)) & 1) << k
            bit += 1
            if bit == 8 { bit = 0; pos += 1 }
        }
        return v
    }

    /// A canonical Huffman code: counts per length and symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []
        init(lengths: [Int]) {
            for l in lengths { counts[l] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for l in 1..<16 { offsets[l] = offsets[l - 1] + counts[l - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (s, l) in lengths.enumerated() where l > 0 { symbols[offsets[l]] = s; offsets[l] += 1 }
        }
    }

    mutating func decode(_ h: Huffman) throws -> Int {
        var code = 0, first = 0, index = 0
        for len in 1..<16 {
            code |= try bits(1)
            let count = h.counts[len]
            if code - count < first { return h.symbols[index + (code - first)] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw PNGImage.Failure(description: "inflate: bad code")
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    mutating func run() throws -> [UInt8] {
        var last = 0
        repeat {
            last = try bits(1)
            switch try bits(2) {
            case 0:
                if bit > 0 { bit = 0; pos += 1 }
                guard pos + 4 <= input.count else { throw PNGImage.Failure(description: "inflate: short stored block") }
                let len = Int(input[pos]) | Int(input[pos + 1]) << 8
                pos += 4
                guard pos + len <= input.count else { throw PNGImage.Failure(description: "inflate: short stored block") }
                out += input[pos..<(pos + len)]
                pos += len
            case 1:
                let lit = Huffman(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
                let dist = Huffman(lengths: [Int](repeating: 5, count: 30))
                try block(lit, dist)
            case 2:
                let hlit = try bits(5) + 257, hdist = try bits(5) + 1, hclen = try bits(4) + 4
                let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
                var clens = [Int](repeating: 0, count: 19)
                for k in 0..<hclen { clens[order[k]] = try bits(3) }
                let ch = Huffman(lengths: clens)
                var lengths: [Int] = []
                while lengths.count < hlit + hdist {
                    let sym = try decode(ch)
                    switch sym {
                    case 0..<16: lengths.append(sym)
                    case 16:
                        guard let prev = lengths.last else { throw PNGImage.Failure(description: "inflate: repeat with nothing before") }
                        lengths += [Int](repeating: prev, count: 3 + (try bits(2)))
                    case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
                    default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
                    }
                }
                try block(Huffman(lengths: Array(lengths[0..<hlit])), Huffman(lengths: Array(lengths[hlit...])))
            default:
                throw PNGImage.Failure(description: "inflate: bad block type")
            }
        } while last == 0
        return out
    }

    mutating func block(_ lit: Huffman, _ dist: Huffman) throws {
        while true {
            let sym = try decode(lit)
            if sym < 256 { out.append(UInt8(sym)); continue }
            if sym == 256 { return }
            let li = sym - 257
            guard li < Self.lengthBase.count else { throw PNGImage.Failure(description: "inflate: bad length") }
            let length = Self.lengthBase[li] + (try bits(Self.lengthExtra[li]))
            let di = try decode(dist)
            guard di < Self.distBase.count else { throw PNGImage.Failure(description: "inflate: bad distance") }
            let d = Self.distBase[di] + (try bits(Self.distExtra[di]))
            guard d <= out.count else { throw PNGImage.Failure(description: "inflate: distance too far") }
            let start = out.count - d
            for k in 0..<length { out.append(out[start + k]) }
        }
    }
}
