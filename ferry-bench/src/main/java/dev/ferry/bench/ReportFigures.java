package dev.ferry.bench;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

import java.awt.Color;
import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The report's plots: which results each one shows as which series, drawn by JFreeChart into
 * SVG (JFreeSVG), and the table of values and ratios under each.
 *
 * <pre>{@code
 * for (ReportFigures.Figure f : ReportFigures.ALL) {
 *     ReportFigures.Drawn d = f.draw(results);   // null when no result belongs to it
 *     if (d != null) html.append(d.svg()).append(d.table());
 * }
 * }</pre>
 */
final class ReportFigures {
    /** Peers, whose series the ratios compare Ferry with. */
    static final List<String> PEERS = List.of("MPICH", "Open MPI", "UCX");
    static final int WIDTH = 860;
    static final int HEIGHT = 440;

    private ReportFigures() {
    }

    /** Sizes on an axis as people write them: 64, 4K, 1M. */
    private static final java.text.NumberFormat BYTES = new java.text.NumberFormat() {
        @Override
        public StringBuffer format(double v, StringBuffer to, java.text.FieldPosition pos) {
            return format(Math.round(v), to, pos);
        }

        @Override
        public StringBuffer format(long v, StringBuffer to, java.text.FieldPosition pos) {
            return to.append(v >= 1 << 20 ? (v >> 20) + "M" : v >= 1024 ? (v >> 10) + "K" : String.valueOf(v));
        }

        @Override
        public Number parse(String source, java.text.ParsePosition pos) {
            throw new UnsupportedOperationException("an axis format only formats");
        }
    };

    /**
     * One plot.
     *
     * @param id        its anchor in the page
     * @param title     what it shows
     * @param bandwidth MB/s (higher is better) rather than microseconds (lower is better)
     * @param series    the series a result belongs to, or null when it is not in this plot
     * @param ferry     the series the ratios are of (Ferry's main one)
     */
    record Figure(String id, String title, boolean bandwidth, Function<Result, String> series, String ferry) {
        /** The series, each a map from size to value. */
        Map<String, TreeMap<Long, Double>> data(List<Result> results) {
            Map<String, TreeMap<Long, Double>> d = new LinkedHashMap<>();
            for (Result r : results) {
                String s = series.apply(r);
                Double v = bandwidth ? r.mbPerS() : Double.valueOf(r.medianUs());
                if (s != null && v != null && v > 0 && r.size() > 0) {
                    d.computeIfAbsent(s, k -> new TreeMap<>()).put(r.size(), v);
                }
            }
            return d;
        }

        /** The plot and its table, or null when no result belongs to it. */
        Drawn draw(List<Result> results) {
            Map<String, TreeMap<Long, Double>> d = data(results);
            if (d.isEmpty()) {
                return null;
            }
            XYSeriesCollection ds = new XYSeriesCollection();
            d.forEach((name, points) -> {
                XYSeries s = new XYSeries(name);
                points.forEach(s::add);
                ds.addSeries(s);
            });
            String y = bandwidth ? "MB/s (10^6 bytes a second)" : "one-way latency, us (median)";
            JFreeChart chart = ChartFactory.createXYLineChart(title, "message size, bytes", y, ds, PlotOrientation.VERTICAL, true, false, false);
            XYPlot plot = chart.getXYPlot();
            LogAxis x = new LogAxis("message size, bytes");
            x.setBase(2);
            x.setSmallestValue(1);
            x.setTickUnit(new org.jfree.chart.axis.NumberTickUnit(2)); // every fourth power of two: 1, 16, 256, 4K ...
            x.setNumberFormatOverride(BYTES);
            plot.setDomainAxis(x);
            LogAxis yAxis = new LogAxis(y);
            yAxis.setNumberFormatOverride(new java.text.DecimalFormat("#,##0.###"));
            plot.setRangeAxis(yAxis);
            style(chart, plot);
            return new Drawn(svg(chart), table(d));
        }

        private String table(Map<String, TreeMap<Long, Double>> d) {
            TreeSet<Long> sizes = new TreeSet<>();
            d.values().forEach(m -> sizes.addAll(m.keySet()));
            List<String> peers = d.keySet().stream().filter(PEERS::contains).toList();
            StringBuilder t = new StringBuilder("<table><thead><tr><th>size</th>");
            d.keySet().forEach(s -> t.append("<th>").append(ReportPage.escape(s)).append("</th>"));
            if (!peers.isEmpty() && d.containsKey(ferry)) {
                t.append("<th>").append(ReportPage.escape(ferry)).append(" vs best peer</th>");
            }
            t.append("</tr></thead><tbody>");
            for (long size : sizes) {
                t.append("<tr><td>").append(ReportPage.size(size)).append("</td>");
                for (TreeMap<Long, Double> m : d.values()) {
                    Double v = m.get(size);
                    t.append("<td>").append(v == null ? "" : ReportPage.number(v)).append("</td>");
                }
                if (!peers.isEmpty() && d.containsKey(ferry)) {
                    Double mine = d.get(ferry).get(size);
                    Double best = peers.stream().map(p -> d.get(p).get(size)).filter(Objects::nonNull)
                            .reduce((a, b) -> bandwidth ? Math.max(a, b) : Math.min(a, b)).orElse(null);
                    String cell = "";
                    if (mine != null && best != null) {
                        double ratio = bandwidth ? mine / best : best / mine; // above 1: Ferry ahead
                        cell = String.format("%.2fx %s", ratio, ratio >= 1 ? "ahead" : "behind");
                    }
                    t.append("<td>").append(cell).append("</td>");
                }
                t.append("</tr>");
            }
            return t.append("</tbody></table>").toString();
        }
    }

    /** A plot as an SVG element, and its table as HTML. */
    record Drawn(String svg, String table) {
    }

    /** The latency percentiles at 8 bytes (HdrHistogram's p50 to p99.9), one series per line that has them. */
    static Drawn percentiles(List<Result> results, long size) {
        double[] ps = {50, 90, 99, 99.9};
        String[] fields = {"p50_us", "p90_us", "p99_us", "p999_us"};
        XYSeriesCollection ds = new XYSeriesCollection();
        StringBuilder t = new StringBuilder("<table><thead><tr><th>series</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th></tr></thead><tbody>");
        for (Result r : results) {
            String name = latencySeries(r);
            if (name == null || r.size() != size || !r.extra().containsKey("p50_us")) {
                continue;
            }
            XYSeries s = new XYSeries(name);
            t.append("<tr><td>").append(ReportPage.escape(name)).append("</td>");
            for (int i = 0; i < ps.length; i++) {
                double v = i == 2 ? r.p99Us() : Double.parseDouble(r.extra().get(fields[i]).toString());
                s.add(-Math.log10(1 - ps[i] / 100), Math.max(v, 1e-3)); // 0.3, 1, 2, 3: the nines
                t.append("<td>").append(ReportPage.number(v)).append("</td>");
            }
            t.append("</tr>");
            ds.addSeries(s);
        }
        if (ds.getSeriesCount() == 0) {
            return null;
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Latency percentiles at " + size + " B, same node",
                "percentile (nines: 0.3 = p50, 1 = p90, 2 = p99, 3 = p99.9)", "one-way latency, us", ds, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(new NumberAxis("percentile (nines: 0.3 = p50, 1 = p90, 2 = p99, 3 = p99.9)"));
        LogAxis yAxis = new LogAxis("one-way latency, us");
        yAxis.setNumberFormatOverride(new java.text.DecimalFormat("#,##0.###"));
        plot.setRangeAxis(yAxis);
        style(chart, plot);
        return new Drawn(svg(chart), t.append("</tbody></table>").toString());
    }

    private static void style(JFreeChart chart, XYPlot plot) {
        chart.setBackgroundPaint(Color.WHITE);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        Color[] palette = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
                new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};
        for (int i = 0; i < plot.getDataset().getSeriesCount(); i++) {
            r.setSeriesPaint(i, palette[i % palette.length]);
        }
        plot.setRenderer(r);
    }

    private static String svg(JFreeChart chart) {
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
        // a tenth of a pixel is finer than any screen shows: a third of the page's bytes
        g.setGeomDoubleConverter(v -> v == Math.rint(v) ? String.valueOf((long) v) : String.format(java.util.Locale.ROOT, "%.1f", v));
        chart.draw(g, new Rectangle(0, 0, WIDTH, HEIGHT));
        return g.getSVGElement();
    }

    private static String buffers(Result r) {
        return String.valueOf(r.extra().getOrDefault("buffers", ""));
    }

    /** A same-node latency line's series name, or null. */
    static String latencySeries(Result r) {
        return switch (r.benchmark()) {
            case "latency" -> switch (r.driver()) {
                case "shm" -> buffers(r).equals("array") ? "Ferry API (byte[])" : r.extra().containsKey("mode") ? null : "Ferry API";
                case "mpich" -> "MPICH";
                case "openmpi" -> "Open MPI";
                case "ucx" -> "UCX";
                default -> null;
            };
            case "engine-latency" -> r.driver().equals("shm") ? "Ferry engine" : null;
            case "driver-latency" -> r.driver().equals("shm") ? "shm driver" : r.driver().equals("ref-shm") ? "ref-shm (a cache line)" : null;
            default -> null;
        };
    }

    /** Every plot of the report, in page order. */
    static final List<Figure> ALL = List.of(
            new Figure("latency-shm", "Point-to-point latency, same node (shm)", false, ReportFigures::latencySeries, "Ferry API"),
            new Figure("latency-tcp", "Point-to-point latency, two nodes played on loopback (tcp)", false, r -> switch (r.benchmark()) {
                case "latency" -> r.driver().equals("tcp") && !buffers(r).equals("array") ? "Ferry API" : null;
                case "engine-latency" -> r.driver().equals("tcp") ? "Ferry engine" : null;
                case "driver-latency" -> r.driver().equals("tcp") ? "tcp driver" : r.driver().equals("ref-nio") ? "ref-nio (NIO sockets)" : null;
                default -> null;
            }, "Ferry API"),
            new Figure("bw-shm", "Bandwidth, same node (shm), 16 messages in flight", true, r -> switch (r.benchmark()) {
                case "bw" -> switch (r.driver()) {
                    case "shm" -> buffers(r).equals("array") ? "Ferry API (byte[])" : "Ferry API";
                    case "mpich" -> "MPICH";
                    case "openmpi" -> "Open MPI";
                    case "ucx" -> "UCX";
                    default -> null;
                };
                case "engine-bandwidth" -> r.driver().equals("shm") && buffers(r).equals("offheap") ? "Ferry engine" : null;
                case "driver-bandwidth" -> switch (r.driver()) {
                    case "ref-shm" -> "ref-shm (memcpy)";
                    case "ref-readv" -> "ref-readv (process_vm_readv)";
                    default -> null;
                };
                default -> null;
            }, "Ferry API"),
            new Figure("bw-tcp", "Bandwidth, two nodes played on loopback (tcp), 16 messages in flight", true, r -> switch (r.benchmark()) {
                case "bw" -> r.driver().equals("tcp") && !buffers(r).equals("array") ? "Ferry API" : null;
                case "engine-bandwidth" -> r.driver().equals("tcp") && buffers(r).equals("offheap") ? "Ferry engine" : null;
                case "driver-bandwidth" -> r.driver().equals("ref-nio") ? "ref-nio (NIO sockets)" : null;
                default -> null;
            }, "Ferry API"),
            new Figure("bibw-shm", "Bidirectional bandwidth and message rate, same node (shm)", true, r -> switch (r.benchmark()) {
                case "bibw" -> r.driver().equals("shm") ? "bibw, Ferry API (" + buffers(r) + ")" : null;
                case "mbw-mr" -> r.driver().equals("shm") ? "mbw-mr, Ferry API (" + buffers(r) + ")" : null;
                default -> null;
            }, "bibw, Ferry API (segment)"),
            collective("bcast"), collective("reduce"), collective("allreduce"), collective("allgather"), collective("alltoall"),
            new Figure("rma-shm", "One-sided operations on a window, same node (shm): each with a flush", false,
                    r -> r.driver().equals("shm") && (r.benchmark().equals("put-latency") || r.benchmark().equals("get-latency")
                            || r.benchmark().equals("fetch-op-latency")) ? r.benchmark().replace("-latency", "") : null, "put"));

    private static Figure collective(String name) {
        return new Figure(name, "MPI_" + Character.toUpperCase(name.charAt(0)) + name.substring(1) + " on one node (shm): the slowest rank's median",
                false, r -> r.benchmark().equals(name)
                        ? ("naive".equals(r.extra().get("impl")) ? "naive (point-to-point), " : "Ferry, ") + r.extra().get("ranks") + " ranks"
                        : null, "Ferry, 4 ranks");
    }

    /** The series names of {@code results} in every plot, for the page's checks. */
    static List<String> seriesOf(Figure f, List<Result> results) {
        return new ArrayList<>(f.data(results).keySet());
    }
}
