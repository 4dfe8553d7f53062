/// The Nelder–Mead simplex method, for the handful of coefficients of the cost model: no derivatives, and
/// deterministic from a fixed start.
enum NelderMead {
    /// The point near `start` that minimises `f`, after at most `iterations` steps.
    static func minimise(
        _ f: ([Double]) -> Double, from start: [Double], step: Double,
        iterations: Int = 4000
    ) -> [Double] {
        let n = start.count
        var simplex: [[Double]] =
            [start]
            + (0..<n).map { i in
                var point = start
                point[i] += step
                return point
            }
        var values = simplex.map(f)
        func combine(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] {
            zip(a, b).map { $0 + t * ($1 - $0) }  // a + t·(b − a)
        }
        for _ in 0..<iterations {
            let order = values.indices.sorted { values[$0] < values[$1] }
            simplex = order.map { simplex[$0] }
            values = order.map { values[$0] }
            if values[n] - values[0] < 1e-14 { break }
            let centroid = (0..<n).map { i in simplex[0..<n].reduce(0) { $0 + $1[i] } / Double(n) }
            let reflected = combine(centroid, simplex[n], -1)
            let reflectedValue = f(reflected)
            if reflectedValue < values[0] {
                let expanded = combine(centroid, simplex[n], -2)
                let expandedValue = f(expanded)
                (simplex[n], values[n]) =
                    expandedValue < reflectedValue ? (expanded, expandedValue) : (reflected, reflectedValue)
            } else if reflectedValue < values[n - 1] {
                (simplex[n], values[n]) = (reflected, reflectedValue)
            } else {
                let contracted = combine(centroid, simplex[n], 0.5)
                let contractedValue = f(contracted)
                if contractedValue < values[n] {
                    (simplex[n], values[n]) = (contracted, contractedValue)
                } else {
                    for i in 1...n {
                        simplex[i] = combine(simplex[0], simplex[i], 0.5)
                        values[i] = f(simplex[i])
                    }
                }
            }
        }
        return simplex[values.indices.min { values[$0] < values[$1] }!]
    }
}
