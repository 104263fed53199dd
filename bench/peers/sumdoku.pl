% GNU Prolog CLP(FD) counter for contest instances, the peer a Prolog user
% would write. Reads the row/7 and vertical/10 facts of each file given on the
% command line and prints solutions(S). (FILE<TAB>solutions(S). for several).
% Build: gplc --no-top-level -o sumdoku sumdoku.pl

:- initialization(main).

main :-
    argument_list(Files),
    length(Files, N),
    ( member(F, Files), count_file(F, N), fail ; true ),
    halt.

count_file(File, N) :-
    read_facts(File, Facts),
    g_assign(count, 0),
    ( model(Facts, Cells), fd_labeling(Cells, [variable_method(ff)]), g_inc(count), fail ; true ),
    g_read(count, C),
    ( N > 1 -> format('~a\t', [File]) ; true ),
    format('solutions(~d).~n', [C]).

model(Facts, Cells) :-
    length(Cells, 81),
    fd_domain(Cells, 1, 9),
    rows_of(Cells, Rows),
    transpose9(Rows, Cols),
    boxes_of(Rows, Boxes),
    all_distinct(Rows), all_distinct(Cols), all_distinct(Boxes),
    relations(Facts, Rows).

all_distinct([]).
all_distinct([G|Gs]) :- fd_all_different(G), all_distinct(Gs).

read_facts(File, Facts) :-
    open(File, read, S),
    read_all(S, Facts),
    close(S).
read_all(S, Facts) :-
    read(S, T),
    ( T == end_of_file -> Facts = [] ; Facts = [T|Rest], read_all(S, Rest) ).

rows_of([], []) :- !.
rows_of(Cells, [Row|Rows]) :- length(Row, 9), append(Row, Rest, Cells), rows_of(Rest, Rows).

transpose9(Rows, Cols) :- findall_cols([1, 2, 3, 4, 5, 6, 7, 8, 9], Rows, Cols).
findall_cols([], _, []).
findall_cols([I|Is], Rows, [Col|Cols]) :- column(Rows, I, Col), findall_cols(Is, Rows, Cols).
column([], _, []).
column([R|Rs], I, [X|Xs]) :- nth(I, R, X), column(Rs, I, Xs).

boxes_of([], []).
boxes_of([R1,R2,R3|Rs], Boxes) :- band(R1, R2, R3, B), boxes_of(Rs, Bs), append(B, Bs, Boxes).
band([], [], [], []).
band([A,B,C|R1], [D,E,F|R2], [G,H,I|R3], [[A,B,C,D,E,F,G,H,I]|Bs]) :- band(R1, R2, R3, Bs).

% Grid row (1-based) of each row(Line, ...) fact, and the upper row of each vertical(Line, ...) fact.
row_line(1, 1). row_line(3, 2). row_line(5, 3). row_line(6, 4). row_line(8, 5).
row_line(10, 6). row_line(11, 7). row_line(13, 8). row_line(15, 9).
vertical_line(2, 1). vertical_line(4, 2). vertical_line(7, 4). vertical_line(9, 5).
vertical_line(12, 7). vertical_line(14, 8).

relations([], _).
relations([F|Fs], Rows) :- relation(F, Rows), relations(Fs, Rows).

relation(Fact, Rows) :-
    Fact =.. [row, Line|Syms], !,
    row_line(Line, R), nth(R, Rows, Row),
    pairs_in_row(Syms, [1-2, 2-3, 4-5, 5-6, 7-8, 8-9], Row).
relation(Fact, Rows) :-
    Fact =.. [vertical, Line|Syms], !,
    vertical_line(Line, R), R1 is R + 1,
    nth(R, Rows, Top), nth(R1, Rows, Bottom),
    pairs_in_column(Syms, Top, Bottom).
relation(_, _).

pairs_in_row([], [], _).
pairs_in_row([S|Ss], [A-B|Ps], Row) :- nth(A, Row, X), nth(B, Row, Y), sum_rel(S, X, Y), pairs_in_row(Ss, Ps, Row).
pairs_in_column([], [], []).
pairs_in_column([S|Ss], [X|Xs], [Y|Ys]) :- sum_rel(S, X, Y), pairs_in_column(Ss, Xs, Ys).

sum_rel(-1, X, Y) :- X + Y #< 10.
sum_rel(0, X, Y) :- X + Y #= 10.
sum_rel(1, X, Y) :- X + Y #> 10.
