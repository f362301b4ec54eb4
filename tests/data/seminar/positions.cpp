// Test harness (not the seminar's): for each line of stdin, the three positions the seminar's InsertBF
// computes, by the same expressions, printed as "line<TAB>p1 p2 p3". Lines may contain spaces here.
#include <iostream>
#include <string>
#include <functional>

int main()
{
    const std::size_t velicina_polja = 1000;
    std::string vrijednost;
    while (std::getline(std::cin, vrijednost))
    {
        std::hash<std::string> funkcija_sazimanja;
        std::size_t sazetak1=funkcija_sazimanja(vrijednost)%velicina_polja;
        std::size_t sazetak2=(funkcija_sazimanja(vrijednost)>>16)%velicina_polja;
        std::size_t sazetak3=(funkcija_sazimanja(vrijednost)>>32)%velicina_polja;
        std::cout << vrijednost << '\t' << sazetak1 << ' ' << sazetak2 << ' ' << sazetak3 << '\n';
    }
    return 0;
}
