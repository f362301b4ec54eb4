// Writes Apache Spark Bloom filters for bloomviz's reader tests (not part of any build). Run against the
// spark-sketch jar that PyPI's pyspark ships (deps/jars/spark-sketch_2.13-<version>.jar):
//   javac -cp spark-sketch.jar SparkSamples.java && java -cp spark-sketch.jar:. SparkSamples OUT_DIR
// For each sample, writes <name>.spark (BloomFilter.writeTo) and <name>.json: the version, m (bitSize), the
// bits set (cardinality), the items put, and which probes Spark's own mightContain answers true for.
import org.apache.spark.util.sketch.BloomFilter;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

public class SparkSamples {
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') sb.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.append('"').toString();
    }

    static void write(BloomFilter f, String version, String kind, List<String> items, List<String> probes,
                      Path dir, String name, int seed) throws Exception {
        try (OutputStream out = Files.newOutputStream(dir.resolve(name + ".spark"))) {
            f.writeTo(out);
        }
        List<String> present = new ArrayList<>();
        for (String p : probes) {
            boolean hit = kind.equals("long") ? f.mightContainLong(Long.parseLong(p)) : f.mightContainString(p);
            if (hit) present.add(quote(p));
        }
        List<String> quoted = new ArrayList<>();
        for (String s : items) quoted.add(quote(s));
        List<String> probesQuoted = new ArrayList<>();
        for (String s : probes) probesQuoted.add(quote(s));
        String json = "{\n \"library\": \"Apache Spark spark-sketch " + BloomFilter.class.getPackage().getImplementationVersion()
            + " (from PyPI's pyspark)\",\n \"made_by\": \"SparkSamples.java: BloomFilter.create(Version." + version
            + ", 500, optimalNumOfBits(500, 0.03), seed); put" + (kind.equals("long") ? "Long" : "String")
            + " each item; writeTo\",\n \"version\": \"" + version + "\",\n \"seed\": " + seed
            + ",\n \"items_as\": \"" + kind + "\",\n \"m\": " + f.bitSize() + ",\n \"bits_set\": " + f.cardinality()
            + ",\n \"items\": [" + String.join(", ", quoted) + "],\n \"probes\": [" + String.join(", ", probesQuoted)
            + "],\n \"probes_present\": [" + String.join(", ", present) + "]\n}\n";
        Files.write(dir.resolve(name + ".json"), json.getBytes(StandardCharsets.UTF_8));
    }

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        long bits = BloomFilter.optimalNumOfBits(500, 0.03);
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < 400; i++) strings.add("item-" + i);
        strings.addAll(Arrays.asList("日本語", "é", "\uD83D\uDE00", "a", "ab", "abc", ""));
        List<String> probes = new ArrayList<>();
        for (int i = 0; i < 2000; i++) probes.add("probe-" + i);
        List<String> longs = new ArrayList<>(), longProbes = new ArrayList<>();
        for (long i = -1400; i < 1400; i += 7) { longs.add(Long.toString(i)); longProbes.add(Long.toString(i + 3)); }
        longs.add(Long.toString(Long.MIN_VALUE));
        longs.add(Long.toString(Long.MAX_VALUE));
        BloomFilter.Version[] versions = {BloomFilter.Version.V1, BloomFilter.Version.V2};
        for (BloomFilter.Version v : versions) {
            int seed = v == BloomFilter.Version.V2 ? 20240 : 0;
            BloomFilter s = BloomFilter.create(v, 500, bits, seed);
            for (String x : strings) s.putString(x);
            write(s, v.name(), "text", strings, probes, dir, "spark-" + v.name().toLowerCase() + "-strings", seed);
            BloomFilter l = BloomFilter.create(v, 500, bits, seed);
            for (String x : longs) l.putLong(Long.parseLong(x));
            write(l, v.name(), "long", longs, longProbes, dir, "spark-" + v.name().toLowerCase() + "-longs", seed);
        }
    }
}
