/**
 * Word banks for the generated articles, one per language. Small on purpose: the point is plausible,
 * varied HTML with real-world characters (accents, ampersands, quotes) that exercise escaping downstream.
 */
export const LANGUAGES = ['en', 'fr', 'de', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface LanguageBank {
  topics: readonly string[];
  titles: readonly string[]; // "{topic}" is replaced
  headings: readonly string[];
  subheadings: readonly string[];
  sentences: readonly string[];
  listItems: readonly string[];
  tableHead: readonly [string, string, string];
  seeAlso: string;
  conclusion: string;
  figureCaption: string;
}

export const BANKS: Record<Language, LanguageBank> = {
  en: {
    topics: [
      'sourdough baking',
      'trail running',
      'home composting',
      'remote work',
      'urban cycling',
      'budget travel',
      'indoor plants',
      'coffee brewing',
      'personal finance',
      'photography basics',
      'small business SEO',
      'meal prep',
    ],
    titles: [
      'How to get started with {topic}',
      '{topic}: a practical guide for 2025',
      '10 mistakes to avoid in {topic}',
      'Tips & tricks for {topic}',
      'Why {topic} is worth your time',
      'The "complete" beginner\'s checklist for {topic}',
    ],
    headings: [
      'Why it matters',
      'Getting started',
      'What you need',
      'Common pitfalls',
      'A step-by-step plan',
      'Going further',
    ],
    subheadings: ['The short version', 'Costs & time', 'What the experts say', 'A quick example'],
    sentences: [
      'Most people overestimate how much equipment they need at the start.',
      'A small, consistent routine beats an ambitious plan that you abandon after a week.',
      'Keep notes: what worked, what did not, and what you would change next time.',
      'The first results usually show up after two or three weeks of regular practice.',
      'Prices vary a lot between regions, so compare at least three offers before you buy.',
      'Beginners often skip the basics & pay for it later.',
      'If something feels too complicated, break it into smaller steps and tackle them one at a time.',
      'Ask people who have done it before; their mistakes are the cheapest lessons you will get.',
    ],
    listItems: [
      'Set a realistic goal',
      'Block 20 minutes a day',
      'Track your progress weekly',
      'Review costs every month',
      'Share what you learn',
      'Start with what you already have',
    ],
    tableHead: ['Option', 'Cost', 'Effort'],
    seeAlso: 'Read next:',
    conclusion: 'Conclusion',
    figureCaption: 'A typical setup for',
  },
  fr: {
    topics: [
      'la boulangerie maison',
      'le jardinage urbain',
      'le télétravail',
      'la randonnée en montagne',
      'le vélo électrique',
      'la cuisine végétarienne',
      "l'épargne au quotidien",
      'la photographie de voyage',
      'le référencement local',
    ],
    titles: [
      'Bien débuter avec {topic}',
      '{topic} : le guide pratique',
      'Les 7 erreurs à éviter avec {topic}',
      'Astuces & conseils pour {topic}',
      "Pourquoi s'intéresser à {topic} ?",
    ],
    headings: [
      "Pourquoi c'est important",
      'Par où commencer',
      'Le matériel nécessaire',
      'Les pièges à éviter',
      'Aller plus loin',
    ],
    subheadings: ['En bref', 'Coûts & délais', "L'avis des experts", 'Un exemple concret'],
    sentences: [
      'La plupart des débutants surestiment le matériel dont ils ont besoin.',
      "Une petite routine régulière vaut mieux qu'un plan ambitieux abandonné au bout d'une semaine.",
      'Notez ce qui a fonctionné, ce qui a échoué et ce que vous changeriez la prochaine fois.',
      'Les premiers résultats apparaissent généralement après deux ou trois semaines.',
      "Les prix varient beaucoup d'une région à l'autre : comparez au moins trois offres.",
      "Demandez conseil à ceux qui l'ont déjà fait ; leurs erreurs sont vos leçons les moins chères.",
    ],
    listItems: [
      'Fixez un objectif réaliste',
      'Réservez 20 minutes par jour',
      'Suivez vos progrès chaque semaine',
      'Vérifiez vos dépenses chaque mois',
      'Partagez ce que vous apprenez',
    ],
    tableHead: ['Option', 'Coût', 'Effort'],
    seeAlso: 'À lire aussi :',
    conclusion: 'En conclusion',
    figureCaption: 'Une installation typique pour',
  },
  de: {
    topics: [
      'Brot backen',
      'Gartenarbeit auf dem Balkon',
      'Homeoffice',
      'Wandern in den Alpen',
      'E-Bikes',
      'vegetarisches Kochen',
      'Geld sparen',
      'Reisefotografie',
      'lokales SEO',
    ],
    titles: [
      'So gelingt der Einstieg: {topic}',
      '{topic}: der praktische Leitfaden',
      '7 Fehler, die Sie bei {topic} vermeiden sollten',
      'Tipps & Tricks rund um {topic}',
      'Warum sich {topic} lohnt',
    ],
    headings: ['Warum es wichtig ist', 'Der Einstieg', 'Was Sie brauchen', 'Häufige Fehler', 'Weiterführende Schritte'],
    subheadings: ['Kurz gesagt', 'Kosten & Zeitaufwand', 'Was Fachleute sagen', 'Ein Beispiel'],
    sentences: [
      'Die meisten Einsteiger überschätzen, wie viel Ausrüstung sie am Anfang brauchen.',
      'Eine kleine, regelmäßige Routine schlägt jeden ehrgeizigen Plan, den man nach einer Woche aufgibt.',
      'Notieren Sie, was funktioniert hat und was Sie beim nächsten Mal ändern würden.',
      'Erste Ergebnisse zeigen sich meist nach zwei bis drei Wochen.',
      'Die Preise schwanken stark – vergleichen Sie mindestens drei Angebote.',
      'Fragen Sie Menschen, die es schon gemacht haben; ihre Fehler sind Ihre günstigsten Lektionen.',
    ],
    listItems: [
      'Ein realistisches Ziel setzen',
      'Täglich 20 Minuten einplanen',
      'Fortschritte wöchentlich prüfen',
      'Kosten monatlich überprüfen',
      'Erfahrungen teilen',
    ],
    tableHead: ['Option', 'Kosten', 'Aufwand'],
    seeAlso: 'Weiterlesen:',
    conclusion: 'Fazit',
    figureCaption: 'Eine typische Ausstattung für',
  },
  es: {
    topics: [
      'el pan casero',
      'la jardinería urbana',
      'el teletrabajo',
      'el senderismo',
      'la bicicleta eléctrica',
      'la cocina vegetariana',
      'el ahorro diario',
      'la fotografía de viajes',
      'el SEO local',
    ],
    titles: [
      'Cómo empezar con {topic}',
      '{topic}: guía práctica',
      '7 errores que debes evitar con {topic}',
      'Trucos & consejos sobre {topic}',
      '¿Por qué vale la pena {topic}?',
    ],
    headings: ['Por qué es importante', 'Por dónde empezar', 'Lo que necesitas', 'Errores frecuentes', 'Ir más allá'],
    subheadings: ['En resumen', 'Costes & tiempo', 'Lo que dicen los expertos', 'Un ejemplo'],
    sentences: [
      'La mayoría de los principiantes sobreestima el equipo que necesita al principio.',
      'Una rutina pequeña y constante es mejor que un plan ambicioso que abandonas en una semana.',
      'Anota qué funcionó, qué no y qué cambiarías la próxima vez.',
      'Los primeros resultados suelen llegar después de dos o tres semanas.',
      'Los precios varían mucho según la región: compara al menos tres ofertas.',
      'Pregunta a quien ya lo ha hecho; sus errores son tus lecciones más baratas.',
    ],
    listItems: [
      'Fija un objetivo realista',
      'Reserva 20 minutos al día',
      'Revisa tu progreso cada semana',
      'Controla los gastos cada mes',
      'Comparte lo que aprendes',
    ],
    tableHead: ['Opción', 'Coste', 'Esfuerzo'],
    seeAlso: 'Lee también:',
    conclusion: 'Conclusión',
    figureCaption: 'Una configuración típica para',
  },
};

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** Unknown languages (a generate call may ask for 'it') still get a body: English text. */
export function bankFor(language: string): LanguageBank {
  return isLanguage(language) ? BANKS[language] : BANKS.en;
}
