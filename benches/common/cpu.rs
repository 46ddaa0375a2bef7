//! Timing in CPU time for the benchmarks (criterion's figures are wall
//! time, which the other jobs of a loaded machine inflate): runs of a
//! floor and of herald interleaved, each timed by the thread's CPU clock.

/// The rounds [`cpu_pairs`] times.
pub const PAIRS: usize = 21;

/// [`PAIRS`] rounds of each floor then `herald`, measured in CPU time.
/// Prints, under `label`, each one's median and, for each floor, the
/// median of its rounds' ratios, floor / herald.
pub fn cpu_pairs(label: &str, floors: &[(&str, &dyn Fn())], herald: &dyn Fn()) {
    let mut f: Vec<Vec<f64>> = vec![Vec::new(); floors.len()];
    let mut ratio: Vec<Vec<f64>> = vec![Vec::new(); floors.len()];
    let mut h = Vec::new();
    for _ in 0..PAIRS {
        let times: Vec<f64> = floors.iter().map(|(_, run)| thread_cpu(*run)).collect();
        let b = thread_cpu(herald);
        for (k, a) in times.into_iter().enumerate() {
            f[k].push(a);
            ratio[k].push(a / b);
        }
        h.push(b);
    }
    let herald_ms = median(&mut h) * 1e3;
    for (k, (floor, _)) in floors.iter().enumerate() {
        eprintln!(
            "{label}: CPU, medians of {PAIRS} rounds: {floor} {:.2} ms, herald \
             {herald_ms:.2} ms, {floor} / herald {:.3} (rounds {:.3} to {:.3})",
            median(&mut f[k]) * 1e3,
            median(&mut ratio[k]),
            ratio[k].iter().copied().fold(f64::INFINITY, f64::min),
            ratio[k].iter().copied().fold(0.0, f64::max),
        );
    }
}

/// The median of `values` (sorted in place).
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The CPU time of this thread running `f`, in seconds
/// (`CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_cpu(f: &dyn Fn()) -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let now = || {
        let mut t = Timespec { sec: 0, nsec: 0 };
        // SAFETY: `t` is a valid `struct timespec` for the call to fill.
        let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
        assert_eq!(rc, 0, "clock_gettime");
        t.sec as f64 + t.nsec as f64 * 1e-9
    };
    let start = now();
    f();
    now() - start
}
