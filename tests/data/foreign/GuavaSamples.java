// Writes Guava Bloom filters for bloomviz's reader tests (run by make_samples.py; not part of any build).
// Args: outDir itemsFile probesFile. For each sample, writes <name>.guava (BloomFilter.writeTo) and
// <name>.answers (line 1: bitSize, line 2: set bits, line 3: k, then one 0/1 mightContain answer per probe).
import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import java.io.*;
import java.lang.reflect.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

public class GuavaSamples {
    static Object strategy(int ordinal) throws Exception {
        return Class.forName("com.google.common.hash.BloomFilterStrategies").getEnumConstants()[ordinal];
    }

    // BloomFilter.create(funnel, expected, fpp, strategy) is package-private: the public create always
    // uses MURMUR128_MITZ_64, and the older MITZ_32 files must come from the same code.
    @SuppressWarnings("unchecked")
    static <T> BloomFilter<T> create(Funnel<? super T> funnel, long n, double fpp, int ordinal) throws Exception {
        Class<?> strategyType = Class.forName("com.google.common.hash.BloomFilter$Strategy");
        Method m = BloomFilter.class.getDeclaredMethod("create", Funnel.class, long.class, double.class, strategyType);
        m.setAccessible(true);
        return (BloomFilter<T>) m.invoke(null, funnel, n, fpp, strategy(ordinal));
    }

    static long call(BloomFilter<?> f, String name) throws Exception {
        Method m = BloomFilter.class.getDeclaredMethod(name);
        m.setAccessible(true);
        return ((Number) m.invoke(f)).longValue();
    }

    static long bitCount(BloomFilter<?> f) throws Exception {
        Field bits = BloomFilter.class.getDeclaredField("bits");
        bits.setAccessible(true);
        Object array = bits.get(f);
        Method m = array.getClass().getDeclaredMethod("bitCount");
        m.setAccessible(true);
        return ((Number) m.invoke(array)).longValue();
    }

    static <T> void write(BloomFilter<T> f, List<T> probes, Path dir, String name) throws Exception {
        try (OutputStream out = Files.newOutputStream(dir.resolve(name + ".guava"))) {
            f.writeTo(out);
        }
        StringBuilder sb = new StringBuilder();
        Field k = BloomFilter.class.getDeclaredField("numHashFunctions");
        k.setAccessible(true);
        sb.append(call(f, "bitSize")).append('\n').append(bitCount(f)).append('\n').append(k.getInt(f)).append('\n');
        for (T p : probes) sb.append(f.mightContain(p) ? '1' : '0').append('\n');
        Files.write(dir.resolve(name + ".answers"), sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        List<String> items = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
        List<String> probes = Files.readAllLines(Paths.get(args[2]), StandardCharsets.UTF_8);
        for (int ordinal = 0; ordinal <= 1; ordinal++) {
            BloomFilter<CharSequence> f = create(Funnels.stringFunnel(StandardCharsets.UTF_8), 500, 0.01, ordinal);
            for (String s : items) f.put(s);
            write(f, new ArrayList<CharSequence>(probes), dir, ordinal == 0 ? "guava-mitz32-utf8" : "guava-mitz64-utf8");
        }
        BloomFilter<Long> longs = BloomFilter.create(Funnels.longFunnel(), 300, 0.03);
        for (long i = 0; i < 300; i++) longs.put(i * 7);
        List<Long> longProbes = new ArrayList<>();
        for (long i = 0; i < 2000; i++) longProbes.add(i * 7 + 3);
        write(longs, longProbes, dir, "guava-mitz64-long");
        BloomFilter<CharSequence> chars = BloomFilter.create(Funnels.unencodedCharsFunnel(), 500, 0.01);
        for (String s : items) chars.put(s);
        write(chars, new ArrayList<CharSequence>(probes), dir, "guava-mitz64-chars");
        BloomFilter<Integer> ints = BloomFilter.create(Funnels.integerFunnel(), 300, 0.03);
        for (int i = 0; i < 300; i++) ints.put(i * 7 - 1000);
        List<Integer> intProbes = new ArrayList<>();
        for (int i = 0; i < 2000; i++) intProbes.add(i * 7 + 3 - 1000);
        write(ints, intProbes, dir, "guava-mitz64-int");
        System.out.println(com.google.common.hash.BloomFilter.class.getPackage().getImplementationVersion());
    }
}
