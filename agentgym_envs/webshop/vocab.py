"""The words the WebShop catalog generator draws from: category tree, attributes, options, text.

Everything here is invented for AgentGym (no text from the original WebShop data). The tree has
the original's five top categories; each query subcategory is one line of ``SUBCATEGORY_TABLE``:

    top | breadcrumb below the root | head nouns | attributes | option groups | price low-high

(an entry continues on indented lines).
The first head noun is the subcategory's query (the original's "scraped under" search term).

Attributes belong to their subcategory alone (no attributes are shared across a top category):
each entry lists 12-16 Amazon-style attribute phrases (lower case, without , | > =), and each of
them must fit every head noun of its entry ("face wash that is salicylic acid" is fine, "power
bank that is 120hz display" is not), so a product never carries an attribute foreign to it.

An option group is ``name`` (pool of the same name) or ``name=pool``. Changing anything here
changes generated catalogs: bump ``catalog.GENERATOR_VERSION`` when you do.
"""

from __future__ import annotations

from dataclasses import dataclass

BREADCRUMB_SEPARATOR = " › "

TOP_CATEGORIES: tuple[str, ...] = ("beauty", "electronics", "fashion", "food", "furniture")

ROOT_BREADCRUMB: dict[str, tuple[str, ...]] = {
    "beauty": ("Beauty & Personal Care",),
    "electronics": ("Electronics",),
    "fashion": ("Clothing, Shoes & Jewelry",),
    "food": ("Grocery & Gourmet Food",),
    "furniture": ("Home & Kitchen", "Furniture"),
}

# fmt: off
SUBCATEGORY_TABLE = """
beauty|Hair Care>Shampoo & Conditioner|shampoo,conditioner,shampoo and conditioner set|sulfate free,
    argan oil,dry hair,color treated,tea tree,hair growth,damaged hair,paraben free,silicone free,
    frizz control,curly hair,salon quality,cruelty free,keratin treatment,coconut oil,
    natural ingredients|scent,size=beauty_size|7-45
beauty|Hair Care>Styling Products|hair gel,styling cream,hair wax,pomade|strong hold,matte finish,
    natural shine,curly hair,water based,flexible hold,non greasy,alcohol free,long lasting,
    frizz control,all hair types,no residue,easy wash out,paraben free,travel size|scent,
    size=beauty_size|6-30
beauty|Hair Care>Hair Loss Products|hair growth serum,hair loss treatment,biotin shampoo|
    hair growth,hair loss,thinning hair,biotin,rosemary oil,scalp care,dht blocker,hair thickening,
    caffeine infused,saw palmetto,paraben free,clinically tested,vegan formula,unisex formula,
    daily use|size=beauty_size,item package quantity=count|12-60
beauty|Hair Care>Hair Coloring|hair dye,hair color kit,root touch up|permanent color,semi permanent,
    ammonia free,gray coverage,natural color,ppd free,fade resistant,easy application,
    conditioning formula,gloves included,salon results,fast acting,plant based,no drip|
    color=hair_color,item package quantity=count|5-28
beauty|Skin Care>Face>Moisturizers|face moisturizer,day cream,night cream,face lotion|
    hyaluronic acid,dry skin,oily skin,anti aging,fine lines,vitamin c,ceramide complex,
    peptide complex,non comedogenic,fragrance free,sensitive skin,squalane,dermatologist tested,
    all skin types,lightweight formula|size=beauty_size,item package quantity=count|9-70
beauty|Skin Care>Face>Serums|face serum,vitamin c serum,retinol serum|vitamin c,hyaluronic acid,
    retinol,dark spots,anti aging,fine lines,niacinamide,dropper bottle,quick absorbing,brightening,
    uneven skin tone,paraben free,cruelty free,vegan formula,ferulic acid|size=beauty_size,
    item package quantity=count|10-65
beauty|Skin Care>Face>Cleansers|face wash,facial cleanser,cleansing foam|oily skin,acne prone,
    deep cleansing,salicylic acid,gentle formula,pore minimizing,ph balanced,soap free,tea tree oil,
    sensitive skin,makeup removal,non drying,fragrance free,hydrating,daily use|size=beauty_size,
    item package quantity=count|6-35
beauty|Skin Care>Face>Masks|face mask,sheet mask,clay mask|deep cleansing,hydrating,collagen,
    charcoal,pore minimizing,brightening,soothing,aloe vera,green tea extract,oil control,
    skin firming,korean skincare,all skin types,paraben free|item package quantity=count,color|8-40
beauty|Skin Care>Eyes|eye cream,eye patches,under eye gel|dark circles,puffy eyes,fine lines,
    caffeine,collagen,anti aging,cooling effect,hyaluronic acid,vitamin k,peptides,
    ophthalmologist tested,fragrance free,green tea,sensitive skin|size=beauty_size,
    item package quantity=count|9-50
beauty|Skin Care>Body>Lotions|body lotion,body butter,body cream|shea butter,dry skin,cocoa butter,
    non greasy,coconut oil,fast absorbing,aloe vera,vitamin e,24 hour moisture,eczema relief,
    fragrance free,paraben free,natural ingredients,jojoba oil,sensitive skin|scent,
    size=beauty_size|6-32
beauty|Skin Care>Sunscreens|sunscreen,sunscreen lotion,sunscreen spray|spf 50,water resistant,
    broad spectrum,reef safe,mineral formula,oil free,zinc oxide,non greasy,sweat resistant,
    no white cast,oxybenzone free,fragrance free,sport formula,hypoallergenic,travel size|
    size=beauty_size,item package quantity=count|7-35
beauty|Makeup>Face>Foundation|foundation,liquid foundation,cushion foundation|full coverage,
    matte finish,oil free,buildable coverage,natural finish,long wear,dewy finish,spf protection,
    lightweight formula,transfer resistant,sweat proof,non comedogenic,cruelty free,all skin types,
    fragrance free|color=shade,item package quantity=count|8-55
beauty|Makeup>Face>Concealers|concealer,color corrector|full coverage,dark circles,creamy texture,
    crease proof,long wear,brightening,blemish coverage,redness correcting,matte finish,
    lightweight formula,waterproof,easy blending,non comedogenic,cruelty free,under eye|color=shade,
    item package quantity=count|6-30
beauty|Makeup>Eyes>Eyeshadow|eyeshadow palette,eyeshadow,eye shadow stick|highly pigmented,shimmer,
    matte finish,blendable,long wear,glitter,crease proof,smudge resistant,metallic finish,
    talc free,vegan formula,cruelty free,easy to apply,travel size|color=palette,
    item package quantity=count|6-48
beauty|Makeup>Eyes>Mascara|mascara,lash primer|waterproof,lengthening,volumizing,smudge proof,
    clump free,flake free,curl holding,lash nourishing,sensitive eyes,ophthalmologist tested,
    long wear,easy removal,vegan formula,paraben free|color=lash_color,item package quantity=count|
    5-28
beauty|Makeup>Lips>Lipstick|lipstick,lip gloss,liquid lipstick,lip stain|long wear,moisturizing,
    vitamin e,highly pigmented,lightweight feel,non sticky,plumping effect,hyaluronic acid,
    shea butter,jojoba oil,cruelty free,vegan formula,paraben free,gluten free formula,
    natural ingredients|color=shade,item package quantity=count|5-32
beauty|Makeup>Makeup Remover|makeup remover,micellar water,cleansing balm|waterproof makeup,
    gentle formula,sensitive eyes,fragrance free,alcohol free,hydrating,all skin types,
    double cleansing,vitamin e,rose water,paraben free,dermatologist tested,travel size,no residue,
    green tea extract|size=beauty_size,item package quantity=count|5-25
beauty|Foot, Hand & Nail Care>Nail Polish|nail polish,gel nail polish,nail polish set|quick dry,
    gel polish,chip resistant,high gloss,nail art,long lasting,non toxic,formaldehyde free,
    toluene free,cruelty free,vegan formula,salon quality,easy application,diy manicure|
    color=nail_color,item package quantity=count|5-35
beauty|Foot, Hand & Nail Care>Nail Tools|nail clipper,nail file,cuticle pusher,manicure set|
    stainless steel,easy carry,professional grade,ergonomic grip,rust resistant,non slip handle,
    salon quality,home use,durable construction,precision design,lightweight design,easy to clean,
    unisex design,gift idea|color,style=tool_style|5-30
beauty|Tools & Accessories>Makeup Brushes|makeup brush set,makeup brush,beauty sponge|easy clean,
    travel case,latex free,cruelty free,vegan friendly,streak free,seamless blending,reusable,
    soft touch,professional makeup,odor free,quick drying,liquid and powder,beginner friendly|color,
    item package quantity=count|6-40
beauty|Fragrance>Perfume|perfume,eau de parfum,body mist|floral scent,long lasting fragrance,
    fresh scent,vanilla scent,woody scent,citrus notes,musky scent,fruity scent,unisex scent,
    spray bottle,glass bottle,travel size,gift set,phthalate free,cruelty free|scent,
    size=beauty_size|12-95
beauty|Personal Care>Oral Care|toothpaste,electric toothbrush,teeth whitening kit,water flosser|
    sensitive teeth,fresh breath,plaque removal,gum health,dentist recommended,enamel safe,
    deep clean,clinically proven,ada accepted,cavity protection,professional results,daily use,
    easy to use,travel friendly|color,item package quantity=count|5-80
beauty|Personal Care>Shaving & Hair Removal|razor,electric shaver,hair removal cream,beard trimmer|
    sensitive skin,no irritation,smooth skin,facial hair,body hair,ingrown hair prevention,painless,
    easy to use,quick results,travel friendly,home use,men and women,dermatologist tested,
    long lasting|color,style=tool_style|8-90
beauty|Personal Care>Deodorants|deodorant,antiperspirant,deodorant stick|48 hour protection,
    baking soda free,odor protection,long lasting,no white marks,sensitive skin,fresh scent,
    paraben free,alcohol free,clinical strength,quick drying,dermatologist tested,smooth glide,
    travel size|scent,item package quantity=count|5-22
electronics|Headphones>Over-Ear Headphones|headphones,over-ear headphones,gaming headset|
    noise cancelling,over ear,built-in microphone,hi-fi sound,foldable design,memory foam,
    wireless bluetooth,deep bass,adjustable headband,long battery life,low latency,surround sound,
    protein leather,aux input,lightweight design|color,style=audio_style|18-300
electronics|Headphones>Earbuds|earbuds,wireless earbuds,in-ear headphones|true wireless,
    noise cancelling,charging case,sweat resistant,touch control,stereo sound,bluetooth 5.3,
    built-in microphone,deep bass,secure fit,low latency,long playtime,one touch pairing,
    fast charging,ear tips included|color,style=audio_style|12-200
electronics|Portable Audio>Bluetooth Speakers|bluetooth speaker,portable speaker,smart speaker|
    stereo sound,deep bass,voice assistant,360 degree sound,loud volume,wireless bluetooth,
    compact size,hands free calling,stereo pairing,built-in microphone,aux input,
    crystal clear sound,app control,fabric finish|color,style=device_style|15-220
electronics|Home Audio>Soundbars|soundbar,sound bar,home theater system|dolby atmos,subwoofer,
    hdmi arc,wall mountable,surround sound,optical input,bluetooth streaming,dialogue enhancement,
    remote control included,night mode,5.1 channel,easy setup,deep bass,dts virtual x|
    style=audio_style,color|50-400
electronics|Television & Video>Televisions|smart tv,led tv,television|4k ultra hd,smart tv,hdr,
    voice remote,dolby vision,wall mount,120hz display,streaming apps,hdmi 2.1,game mode,
    quantum dot,slim bezel,dolby audio,energy efficient,alexa compatible|size=screen_size,
    style=device_style|120-900
electronics|Television & Video>TV Mounts|tv wall mount,tv mount,tv stand mount|full motion,
    tilt and swivel,heavy duty,vesa compatible,cable management,easy install,universal fit,
    low profile,cold rolled steel,mounting hardware,weight capacity,powder coated,safety lock,
    space saving|size=screen_size,style=device_style|15-90
electronics|Television & Video>Streaming Devices|streaming stick,streaming media player,hdmi dongle|
    4k ultra hd,voice remote,dolby vision,hdr,high speed,wifi 6,dolby atmos,plug and play,
    usb powered,screen mirroring,live tv,parental controls,private listening,compact size,
    easy setup|style=device_style,color|25-120
electronics|Computers>Laptops|laptop,notebook computer,chromebook|intel core,solid state drive,
    full hd,backlit keyboard,long battery life,touch screen,fingerprint reader,ultra thin,hd webcam,
    wifi 6,usb c port,16gb ram,anti glare display,fast charging,metal chassis|capacity,color|250-990
electronics|Computers>Tablets|tablet,android tablet,drawing tablet|stylus pen,full hd,large display,
    portable design,lightweight,usb c,palm rejection,bluetooth connectivity,eye protection,
    protective case,slim profile,note taking,digital art,online learning|capacity,color|60-700
electronics|Computers>Monitors|monitor,gaming monitor,computer monitor|full hd,ips panel,
    144hz refresh rate,eye care,hdmi port,frameless design,freesync compatible,1ms response time,
    vesa mountable,tilt adjustable,built-in speakers,curved screen,wide viewing angle,hdr10,
    displayport|size=screen_size,style=device_style|90-600
electronics|Computers>Keyboards & Mice|keyboard,wireless mouse,mechanical keyboard,
    keyboard and mouse combo|rgb backlit,ergonomic design,silent click,rechargeable battery,
    usb receiver,plug and play,wireless bluetooth,multi device,windows and mac,2.4ghz wireless,
    low profile,long battery life,office use,auto sleep,anti slip base|color,style=device_style|
    12-150
electronics|Computers>Data Storage|external hard drive,usb flash drive,memory card,portable ssd|
    high speed,shockproof,plug and play,large capacity,compact size,data backup,windows and mac,
    backward compatible,pocket size,reliable storage,file transfer,photo storage,durable design,
    lightweight|capacity,color|8-260
electronics|Computers>Networking|wifi router,mesh wifi system,wifi extender,network switch|
    gigabit ethernet,easy setup,plug and play,ethernet ports,home network,small business,
    stable connection,high speed,low latency,energy efficient,led indicator,compact design,
    online gaming,heat dissipation|style=device_style,color|25-350
electronics|Computers>Webcams|webcam,web camera,streaming camera|full hd,built-in microphone,
    auto focus,privacy cover,wide angle,plug and play,1080p video,low light correction,
    noise reduction,usb powered,clip mount,video calls,live streaming,60fps|color,
    style=device_style|18-120
electronics|Cell Phones & Accessories>Cases|phone case,protective case,wallet case|shockproof,
    slim fit,wireless charging compatible,card holder,drop protection,kickstand,raised edges,
    military grade,magsafe compatible,precise cutouts,scratch resistant,non slip grip,tpu bumper,
    camera protection|color,style=phone_model|6-40
electronics|Cell Phones & Accessories>Chargers|phone charger,wireless charger,car charger,
    charging station|fast charging,usb c,multiple devices,overcharge protection,overheat protection,
    compact design,led indicator,universal compatibility,cable included,travel friendly,
    fireproof material,iphone compatible,samsung compatible,energy efficient|color,
    style=device_style|8-60
electronics|Cell Phones & Accessories>Cables|charging cable,usb c cable,lightning cable,hdmi cable|
    braided nylon,tangle free,gold plated,high speed,aluminum housing,strain relief,
    reinforced connectors,shielded design,flexible cord,long cable,plug and play,durable design,
    lifetime warranty,slim connector|length,color|5-30
electronics|Cell Phones & Accessories>Screen Protectors|screen protector,tempered glass,
    privacy screen|bubble free,9h hardness,case friendly,easy install,anti glare,scratch resistant,
    fingerprint resistant,hd clarity,touch sensitive,alignment frame,shatter resistant,ultra thin,
    full coverage,oleophobic coating|style=phone_model,item package quantity=count|5-25
electronics|Camera & Photo>Digital Cameras|digital camera,vlogging camera,action camera|4k video,
    image stabilization,wide angle,flip screen,high resolution,touch screen,mic input,
    wifi connectivity,time lapse,slow motion,auto focus,live streaming,sd card included,
    compact size,beginner friendly|color,style=device_style|60-800
electronics|Camera & Photo>Security Cameras|security camera,doorbell camera,baby monitor|
    night vision,motion detection,two-way audio,cloud storage,1080p hd,app control,local storage,
    real time alerts,wide viewing angle,easy setup,no subscription,live view,alexa compatible,
    secure encryption|style=device_style,item package quantity=count|25-250
electronics|Wearable Technology>Smartwatches|smartwatch,fitness tracker,smart watch band|
    water resistant,adjustable strap,soft silicone,quick release,sweat proof,breathable design,
    lightweight,comfortable fit,sport style,skin friendly,interchangeable strap,men and women,
    durable design,daily wear|color,size=band_size|18-300
electronics|Video Games>Gaming Accessories|game controller,gaming mouse,controller charging dock|
    rgb lighting,plug and play,usb c,led indicator,compact design,durable build,lightweight,
    easy setup,sleek design,gamer gift,matte black,abs plastic,fast charging|color,
    style=device_style|15-120
electronics|Power Accessories>Power Banks|power bank,portable charger,battery pack|fast charging,
    high capacity,led display,dual usb,usb c,travel friendly,20w pd,airline approved,slim design,
    built-in cables,wireless charging,overcharge protection,pass through charging,multiple devices,
    pocket size|color,capacity=battery|12-80
fashion|Men>Clothing>Shirts>Dress Shirts|men's dress shirt,dress shirt,button down shirt|
    long sleeve,slim fit,wrinkle free,regular fit,button down,stretch fabric,cotton blend,
    spread collar,machine wash,business casual,chest pocket,breathable fabric,poplin fabric,
    french cuff|color,size=apparel,fit type|16-60
fashion|Men>Clothing>Shirts>T-Shirts|men's t-shirt,t-shirt,graphic tee|short sleeve,crew neck,
    cotton blend,v neck,moisture wicking,regular fit,100% cotton,tagless label,preshrunk,
    machine wash,lightweight fabric,ribbed collar,casual wear,double stitched,breathable fabric|
    color,size=apparel,fit type|8-35
fashion|Men>Clothing>Pants|men's pants,chino pants,cargo pants,jogger pants|relaxed fit,
    elastic waist,stretch fabric,multi pocket,slim fit,tapered leg,machine wash,cotton blend,
    wrinkle resistant,breathable fabric,durable fabric,casual wear,quick dry,twill fabric|color,
    size=pants,fit type|18-65
fashion|Men>Clothing>Jeans|men's jeans,denim jeans,jeans|slim fit,straight leg,relaxed fit,
    stretch denim,button fly,classic fit,five pocket,zipper fly,mid rise,machine wash,100% cotton,
    boot cut,tapered leg,fade resistant,ripped knees|color=denim_wash,size=pants,fit type|22-80
fashion|Men>Clothing>Jackets & Coats|men's jacket,winter coat,bomber jacket,rain jacket|
    water resistant,zip closure,detachable hood,fleece lined,windproof,zip pockets,elastic cuffs,
    breathable fabric,adjustable hem,inner pocket,outdoor activities,casual style,machine wash,
    durable fabric|color,size=apparel,fit type|30-160
fashion|Men>Clothing>Shorts|men's shorts,cargo shorts,swim trunks|elastic waist,quick dry,
    drawstring closure,multi pocket,relaxed fit,lightweight fabric,side pockets,machine wash,
    summer style,breathable fabric,stretch fabric,casual wear,back pocket,beach vacation|color,
    size=apparel,fit type|12-40
fashion|Men>Shoes>Sneakers|men's sneakers,running shoes,walking shoes|non slip,rubber sole,
    breathable mesh,memory foam,lace up,arch support,lightweight design,shock absorbing,knit upper,
    wide toe box,cushioned collar,removable insole,gym workout,everyday wear|color,size=shoe|25-120
fashion|Men>Shoes>Boots|men's boots,work boots,chelsea boots|steel toe,waterproof,slip resistant,
    leather upper,rubber sole,ankle support,pull on,oil resistant,cushioned insole,goodyear welt,
    round toe,anti fatigue,shock absorbing,all day comfort|color,size=shoe|40-180
fashion|Women>Clothing>Dresses|women's dress,maxi dress,midi dress,cocktail dress|short sleeve,
    v neck,a line,floral print,high waist,flowy fabric,pockets,sleeveless,wrap style,ruffle hem,
    elastic waist,wedding guest,summer style,fully lined,tie waist,square neck|color,size=apparel,
    fit type|18-90
fashion|Women>Clothing>Tops & Blouses|women's blouse,tunic top,tank top,women's shirt|v neck,
    loose fit,chiffon fabric,casual style,sleeveless,scoop neck,flowy fabric,lightweight fabric,
    lace trim,floral print,summer style,machine wash,breathable fabric,layering piece|color,
    size=apparel,fit type|12-45
fashion|Women>Clothing>Leggings|women's leggings,yoga pants,workout leggings|high waist,
    tummy control,squat proof,four way stretch,moisture wicking,butt lift,hidden pocket,
    buttery soft,non see through,compression fit,seamless design,gym workout,ankle length,quick dry|
    color,size=apparel,fit type|12-45
fashion|Women>Clothing>Jeans|women's jeans,skinny jeans,mom jeans|high waist,stretch denim,
    distressed,button closure,five pocket,zipper fly,machine wash,raw hem,ankle length,curvy fit,
    tummy control,cotton blend,fade resistant,casual style|color=denim_wash,size=pants,fit type|
    22-80
fashion|Women>Clothing>Sweaters|women's sweater,cardigan,pullover sweater|long sleeve,crew neck,
    cable knit,oversized fit,soft knit,chunky knit,ribbed cuffs,drop shoulder,wool blend,
    warm and cozy,cold weather,layering piece,anti pilling,hand wash|color,size=apparel,fit type|
    20-70
fashion|Women>Clothing>Swimsuits|women's swimsuit,bikini set,one piece swimsuit|tummy control,
    padded cups,adjustable straps,quick dry,high waist,removable pads,chlorine resistant,upf 50,
    ruched design,v neck,tie back,full coverage,fully lined,push up,beach vacation|color,
    size=apparel,fit type|16-55
fashion|Women>Clothing>Activewear|sports bra,workout set,running shorts|moisture wicking,quick dry,
    four way stretch,breathable fabric,lightweight fabric,gym workout,seamless design,flat seams,
    anti chafing,athletic fit,compression fit,machine wash,yoga practice,odor resistant|color,
    size=apparel,fit type|12-50
fashion|Women>Shoes>Sandals|women's sandals,flip flops,platform sandals,slide sandals|open toe,
    arch support,cushioned footbed,non slip,rubber sole,slip on,lightweight design,waterproof,
    memory foam,beach vacation,summer style,casual style,orthopedic design,vegan leather|color,
    size=shoe|15-70
fashion|Women>Shoes>Heels|high heels,pumps,block heels,stiletto heels|pointed toe,ankle strap,
    slip on,comfortable heel,patent leather,cushioned insole,non slip sole,closed toe,faux suede,
    wedding party,office wear,elegant style,wide width,classic style|color,size=shoe|25-95
fashion|Women>Shoes>Flats|ballet flats,loafers,women's flats|slip on,round toe,memory foam,
    flexible sole,pointed toe,non slip sole,lightweight design,office wear,vegan leather,
    cushioned insole,faux suede,everyday wear,wide width,breathable lining|color,size=shoe|18-70
fashion|Women>Handbags & Wallets|handbag,crossbody bag,tote bag,women's wallet|vegan leather,
    zipper closure,multiple pockets,large capacity,card slots,gold hardware,lightweight design,
    water resistant,gift for women,everyday use,durable lining,stylish design,interior zip pocket,
    travel friendly|color,style=accessory_style|15-120
fashion|Women>Jewelry>Necklaces|necklace,pendant necklace,choker necklace|sterling silver,
    gold plated,hypoallergenic,adjustable chain,gift box,cubic zirconia,nickel free,lead free,
    tarnish resistant,dainty design,lobster clasp,minimalist style,stainless steel,gift for women|
    color=metal_color,style=accessory_style|12-90
fashion|Women>Jewelry>Earrings|earrings,stud earrings,hoop earrings|sterling silver,hypoallergenic,
    gold plated,cubic zirconia,nickel free,gift box,sensitive ears,tarnish resistant,
    lightweight design,dainty design,stainless steel,minimalist style,gift for women,everyday wear|
    color=metal_color,style=accessory_style|8-60
fashion|Women>Jewelry>Rings|ring,engagement ring,stackable rings|sterling silver,cubic zirconia,
    rose gold plated,hypoallergenic,adjustable size,moissanite,comfort fit,tarnish resistant,
    nickel free,gift box,anniversary gift,white gold plated,dainty design,polished finish|
    color=metal_color,size=ring|10-120
fashion|Novelty & More>Hats & Caps|baseball cap,beanie,sun hat,bucket hat|one size,unisex design,
    soft material,lightweight design,cotton blend,packable design,hand wash,outdoor activities,
    casual style,embroidered logo,stretch fit,everyday wear,travel friendly,classic style|color,
    style=accessory_style|8-35
fashion|Novelty & More>Socks|crew socks,ankle socks,compression socks|cushioned sole,
    moisture wicking,arch support,breathable cotton,reinforced heel,seamless toe,odor resistant,
    anti blister,machine wash,men and women,everyday wear,durable knit,ribbed cuff,gym workout|
    color=sock_color,size=apparel,item package quantity=count|8-30
fashion|Kids>Clothing|kids t-shirt,toddler dress,kids pajamas,kids hoodie|soft cotton,cartoon print,
    machine wash,tagless label,breathable fabric,cute design,gift for kids,easy care,
    comfortable fit,skin friendly,durable fabric,fade resistant,playtime,lightweight fabric|color,
    size=kids,fit type|8-35
fashion|Luggage & Travel Gear|luggage,backpack,duffel bag,carry on suitcase|water resistant,
    expandable,lightweight design,multiple pockets,durable construction,airline approved,
    large capacity,reinforced handles,smooth zippers,business travel,weekend trips,
    interior organizer,unisex design|color,size=luggage|25-220
fashion|Men>Accessories>Watches|men's watch,wrist watch,quartz watch|stainless steel,
    water resistant,quartz movement,leather strap,date display,chronograph,luminous hands,
    scratch resistant,sapphire crystal,analog display,gift box,business casual,japanese movement,
    minimalist style|color=metal_color,style=accessory_style|20-250
food|Snack Foods>Chips & Crisps|potato chips,tortilla chips,veggie chips,kettle chips|sea salt,
    baked,low sodium,gluten free,non gmo,crunchy texture,party size,single serve,
    no artificial colors,avocado oil,plant based,zero trans fat,kosher certified,
    individually wrapped,resealable bag|flavor name,size=food_size|4-35
food|Snack Foods>Nuts & Seeds|mixed nuts,almonds,cashews,pistachios,trail mix|roasted salted,raw,
    unsalted,dry roasted,heart healthy,high fiber,high protein,keto friendly,non gmo,resealable bag,
    bulk pack,gluten free,healthy snack,kosher certified|flavor name=nut_flavor,size=food_size|7-45
food|Snack Foods>Jerky|beef jerky,turkey jerky,meat sticks|pasture raised,high protein,
    no preservatives,teriyaki,smoked,low carb,keto friendly,gluten free,individually wrapped,
    sugar free,no nitrites,small batch,resealable bag,msg free,healthy snack|
    flavor name=jerky_flavor,size=food_size|8-45
food|Snack Foods>Protein Bars|protein bar,granola bar,energy bar|high protein,low sugar,whole grain,
    chocolate chip,peanut butter,dairy free,gluten free,individually wrapped,non gmo,plant based,
    high fiber,rolled oats,no artificial sweeteners,kosher certified,healthy snack|flavor name,
    item package quantity=count|10-45
food|Snack Foods>Cookies|cookies,shortbread cookies,sandwich cookies|chocolate chip,real butter,
    family size,whole wheat,individually wrapped,no artificial colors,gluten free,nut free,
    kosher certified,gift tin,bite size,non gmo,cane sugar,crunchy texture|flavor name,
    size=food_size|4-30
food|Candy & Chocolate>Chocolate|chocolate bar,dark chocolate,milk chocolate,chocolate truffles|
    fair trade,sea salt,caramel filled,gift box,real cocoa,non gmo,gluten free,kosher certified,
    individually wrapped,belgian chocolate,smooth texture,ethically sourced,holiday gift,
    no artificial flavors|flavor name,size=food_size|5-50
food|Candy & Chocolate>Gummies|gummy candy,gummy bears,sour candy|fruit flavored,sour coating,
    gelatin free,real fruit juice,fat free,vegan friendly,gluten free,no artificial colors,
    peanut free facility,resealable bag,party size,chewy texture,low sugar,kosher certified|
    flavor name,size=food_size|4-28
food|Beverages>Coffee|ground coffee,whole bean coffee,coffee pods,instant coffee|medium roast,
    dark roast,light roast,single origin,arabica beans,decaf,fair trade,usda organic,low acid,
    bold flavor,freshly roasted,rainforest alliance,kosher certified,smooth taste|
    flavor name=coffee_flavor,size=food_size|8-50
food|Beverages>Tea|green tea,black tea,herbal tea,matcha powder|antioxidant rich,usda organic,
    non gmo,kosher certified,sugar free,zero calories,no artificial flavors,fair trade certified,
    ethically sourced,hot or iced,smooth taste,gluten free,premium quality,rich aroma|
    flavor name=tea_flavor,item package quantity=count|5-35
food|Beverages>Juices & Water|sparkling water,coconut water,fruit juice,electrolyte drink|
    no sugar added,electrolytes,natural flavors,bpa free packaging,non gmo,gluten free,
    kosher certified,caffeine free,hydrating,no artificial sweeteners,refreshing taste,single serve,
    shelf stable,ready to drink|flavor name,item package quantity=count|6-40
food|Beverages>Sports Drinks & Mixes|protein powder,drink mix,electrolyte powder,pre workout|
    sugar free,muscle recovery,easy mixing,keto friendly,gluten free,non gmo,no artificial colors,
    stevia sweetened,third party tested,low calorie,gym workout,soy free,vegan friendly,made in usa|
    flavor name,size=food_size|12-70
food|Pantry Staples>Pasta & Noodles|pasta,spaghetti,ramen noodles,rice noodles|gluten free,low carb,
    high fiber,quick cooking,non gmo,plant based,kosher certified,bulk pack,no preservatives,
    high protein,egg free,low sodium,easy to prepare,family size|size=food_size,
    item package quantity=count|3-30
food|Pantry Staples>Rice & Grains|rice,quinoa,oats,brown rice|whole grain,high fiber,microwavable,
    gluten free,non gmo,usda organic,bulk pack,quick cooking,kosher certified,resealable bag,
    easy to prepare,low fat,heart healthy,shelf stable|size=food_size,item package quantity=count|
    4-40
food|Pantry Staples>Sauces|pasta sauce,hot sauce,bbq sauce,soy sauce|low sodium,no sugar added,
    family recipe,small batch,gluten free,non gmo,keto friendly,no preservatives,glass packaging,
    kosher certified,bold flavor,all natural,fat free,msg free|flavor name=sauce_flavor,
    size=food_size|4-30
food|Pantry Staples>Condiments & Dressings|salad dressing,mayonnaise,ketchup,mustard|low fat,
    no sugar added,squeeze bottle,vegan friendly,gluten free,keto friendly,non gmo,kosher certified,
    no preservatives,whole30 approved,paleo friendly,dairy free,tangy flavor,family size|
    flavor name,size=food_size|3-25
food|Pantry Staples>Spices & Seasonings|seasoning blend,ground cinnamon,black pepper,sea salt|
    gourmet spices,no msg,organic spices,non gmo,kosher certified,gluten free,no fillers,
    non irradiated,bulk pack,resealable bag,all natural,small batch,rich aroma,restaurant quality|
    size=food_size,item package quantity=count|4-30
food|Pantry Staples>Oils & Vinegars|olive oil,avocado oil,coconut oil,balsamic vinegar|non gmo,
    usda organic,kosher certified,glass packaging,single origin,gluten free,keto friendly,
    whole30 approved,paleo friendly,rich flavor,sustainably sourced,no additives,small batch,
    family size|size=food_size,item package quantity=count|6-40
food|Pantry Staples>Baking Supplies|baking mix,almond flour,cake mix,pancake mix|gluten free,
    keto friendly,almond flour,easy to make,low sugar,non gmo,kosher certified,grain free,
    high protein,no preservatives,paleo friendly,dairy free,resealable bag,family size|flavor name,
    size=food_size|4-30
food|Breakfast Foods>Cereal|cereal,granola,oatmeal cups|whole grain,high fiber,low sugar,
    heart healthy,added vitamins,gluten free,non gmo,high protein,plant based,kosher certified,
    real fruit,no artificial flavors,usda organic,ancient grains|flavor name,size=food_size|4-30
food|Breakfast Foods>Spreads|peanut butter,almond butter,honey,fruit jam|non gmo,usda organic,
    gluten free,kosher certified,glass jar,no preservatives,all natural,small batch,family owned,
    squeeze bottle,single serve,rich flavor,shelf stable,dairy free|flavor name=spread_flavor,
    size=food_size|5-35
food|Dairy, Cheese & Eggs|cheese,cheese crisps,shelf stable milk,powdered milk|lactose free,
    grass fed,shelf stable,high calcium,high protein,gluten free,rbst free,non gmo,usda organic,
    kosher certified,no preservatives,pasture raised,vitamin d added,no artificial colors|
    flavor name,size=food_size|5-40
food|Meat & Seafood|canned tuna,smoked salmon,canned chicken,sardines|boneless skinless,
    high protein,ready to eat,keto friendly,gluten free,low carb,paleo friendly,whole30 approved,
    shelf stable,bpa free packaging,responsibly sourced,no preservatives,easy open,non gmo|
    flavor name,item package quantity=count|6-55
food|Gift Baskets|gift basket,snack box,care package,holiday gift set|gourmet snacks,gift box,
    assorted variety,holiday gift,birthday gift,individually wrapped,corporate gift,thank you gift,
    sympathy gift,sweet and savory,hand packed,college students,gift for women,kosher certified|
    style=gift_style,item package quantity=count|20-95
food|Baby Foods|baby food pouches,baby formula,baby snacks,teething wafers|no added sugar,
    organic ingredients,easy to digest,iron fortified,non gmo,no preservatives,gluten free,
    no artificial colors,pediatrician recommended,kosher certified,nut free,probiotic cultures,
    made in usa,heavy metal tested|flavor name,item package quantity=count|8-45
furniture|Living Room Furniture>Sofas & Couches|sofa,loveseat,sectional couch,futon|mid century,
    velvet fabric,removable cushions,solid wood legs,convertible design,tufted backrest,
    high density foam,easy assembly,living room,deep seat,pet friendly,performance fabric,
    throw pillows included,sturdy frame,linen fabric|color,material type|180-990
furniture|Living Room Furniture>Chairs|accent chair,armchair,recliner chair,rocking chair|
    mid century,upholstered,high back,swivel base,padded seat,lumbar pillow,living room,
    reading nook,linen fabric,boucle fabric,wide seat,sturdy frame,easy assembly,nursery room|color,
    material type|60-450
furniture|Living Room Furniture>Coffee Tables|coffee table,side table,end table,nesting tables|
    solid wood,tempered glass,storage shelf,round shape,rustic finish,metal frame,space saving,
    faux marble,living room,farmhouse design,hairpin legs,industrial design,water resistant,
    easy assembly,mid century|color,size=table_size|40-300
furniture|Living Room Furniture>TV Stands|tv stand,media console,entertainment center|
    storage cabinet,cable management,open shelves,farmhouse style,led lights,sliding barn door,
    glass doors,built-in outlets,engineered wood,mid century,adjustable shelves,soft close,anti tip,
    living room,wood grain|color,size=table_size|60-400
furniture|Living Room Furniture>Bookcases|bookcase,bookshelf,ladder shelf,cube organizer|
    open shelves,wall anchor,sturdy frame,industrial style,engineered wood,space saving,
    easy assembly,home office,living room,adjustable feet,weight capacity,freestanding,kids room,
    modern design|color,size=shelf_size|35-260
furniture|Bedroom Furniture>Beds & Frames|bed frame,platform bed,bunk bed,upholstered bed|
    no box spring needed,wood slats,headboard included,under bed storage,noise free,easy assembly,
    heavy duty,weight capacity,solid wood,sturdy frame,space saving,bedroom,mid century|color,
    size=bed_size|120-900
furniture|Bedroom Furniture>Mattresses|mattress,memory foam mattress,mattress topper|memory foam,
    cooling gel,medium firm,pressure relief,motion isolation,certipur certified,breathable cover,
    hypoallergenic,fiberglass free,spine alignment,plush comfort,non toxic,odor free,
    dust mite resistant|size=bed_size,material type|90-900
furniture|Bedroom Furniture>Dressers|dresser,chest of drawers,nightstand|wood grain,anti tip,
    metal handles,smooth glide,solid wood,easy assembly,engineered wood,bedroom,storage space,
    soft close,mid century,farmhouse style,scratch resistant,sturdy frame|color,size=drawer_count|
    60-450
furniture|Home Office Furniture>Desks|computer desk,standing desk,writing desk,l-shaped desk|
    monitor shelf,cable management,sturdy frame,keyboard tray,home office,easy assembly,
    storage shelf,metal frame,space saving,headphone hook,water resistant,large desktop,
    adjustable feet,modern design|color,size=table_size|70-600
furniture|Home Office Furniture>Office Chairs|office chair,gaming chair,desk chair,ergonomic chair|
    lumbar support,adjustable height,breathable mesh,padded armrests,360 swivel,headrest,
    reclining function,caster wheels,weight capacity,high density foam,easy assembly,flip up arms,
    home office,bifma certified|color,style=chair_style|60-450
furniture|Kitchen & Dining Room Furniture>Dining Sets|dining table set,dining table,kitchen table|
    seats 4,solid wood,extendable table,counter height,farmhouse style,mid century,easy assembly,
    small space,round shape,metal frame,faux marble,dining room,drop leaf,easy clean|color,
    size=table_size|120-900
furniture|Kitchen & Dining Room Furniture>Bar Stools|bar stool,counter stool,kitchen stool|
    counter height,swivel seat,back support,footrest,faux leather,adjustable height,upholstered,
    metal frame,solid wood,non slip pads,easy assembly,kitchen island,weight capacity,padded seat|
    color,item package quantity=count|40-300
furniture|Entryway Furniture|shoe rack,coat rack,storage bench,hall tree|entryway storage,
    space saving,easy assembly,sturdy frame,industrial design,freestanding,mudroom,
    home organization,heavy duty,rustic finish,stable structure,modern design,scratch resistant,
    narrow hallway|color,size=shelf_size|25-200
furniture|Bathroom Furniture|bathroom cabinet,over the toilet storage,bathroom shelf|
    moisture resistant,adjustable shelves,small space,easy assembly,anti tip,white finish,
    engineered wood,towel storage,toiletry organization,modern design,farmhouse style,open shelves,
    sturdy frame,easy clean|color,material type|30-220
furniture|Kids' Furniture|kids table and chair set,toy storage organizer,kids bookshelf|
    rounded corners,non toxic paint,easy assembly,kids room,playroom,child safe,sturdy frame,
    easy clean,bright colors,montessori style,toddler friendly,space saving,nursery room,
    durable construction|color,material type|30-200
furniture|Game & Recreation Room Furniture|gaming desk,bean bag chair,floor chair|cup holder,
    game room,ergonomic design,space saving,dorm room,teens and adults,gamer gift,modern design,
    lightweight,easy to move,durable design,bedroom,living room,compact size|color,size=bag_size|
    40-350
furniture|Outdoor Furniture|patio furniture set,outdoor chair,porch swing,hammock|weather resistant,
    rust resistant,uv resistant,backyard,garden,weight capacity,easy assembly,fade resistant,
    heavy duty,poolside,sturdy frame,balcony,outdoor use,quick drying|color,material type|60-900
furniture|Accent Furniture>Ottomans|ottoman,storage ottoman,pouf,footstool|velvet fabric,
    tufted design,round shape,faux leather,living room,footrest,extra seating,lightweight,
    removable cover,linen fabric,high density foam,non slip pads,boho style,weight capacity|color,
    size=ottoman_size|25-180
furniture|Accent Furniture>Mirrors|wall mirror,full length mirror,vanity mirror|metal frame,
    shatterproof,led lighted,hd clarity,frameless design,bedroom,bathroom,round shape,arched top,
    beveled edge,modern design,copper free,easy install,boho style|color,size=mirror_size|25-260
furniture|Accent Furniture>Room Dividers|room divider,folding screen,privacy screen|folding panels,
    freestanding,privacy protection,portable design,partition wall,lightweight,no assembly,
    space saving,fabric panels,wood frame,double hinged,home office,studio apartment,
    decorative design|color,size=divider_panels|40-260
furniture|Storage & Organization>Storage Cabinets|storage cabinet,kitchen pantry cabinet,
    file cabinet|adjustable shelves,lockable doors,anti tip,large storage,engineered wood,
    easy assembly,home office,space saving,freestanding,sturdy frame,soft close,white finish,
    durable construction,scratch resistant|color,material type|60-450
furniture|Storage & Organization>Closet Systems|closet organizer,clothes rack,wardrobe closet|
    heavy duty,adjustable shelves,hanging rod,portable closet,space saving,easy assembly,
    metal frame,freestanding,non slip feet,weight capacity,bedroom,rust resistant,shoe storage,
    dorm room|color,size=shelf_size|25-250
"""
# fmt: on

#: Value pools of the option groups (lower case, as the original lower-cased option values).
# fmt: off
OPTION_POOLS: dict[str, tuple[str, ...]] = {
    "color": (
        "black", "white", "navy blue", "grey", "light grey", "charcoal", "red", "burgundy",
        "wine red", "pink", "hot pink", "rose gold", "purple", "lavender", "blue", "sky blue",
        "royal blue", "teal", "turquoise", "green", "olive green", "army green", "mint green",
        "yellow", "mustard", "orange", "coral", "brown", "coffee", "khaki", "beige", "ivory",
        "cream", "gold", "silver", "multicolor", "dark brown", "camel", "apricot", "clear",
    ),
    "apparel": (
        "xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large", "3x-large",
        "4x-large", "5x-large",
    ),
    "shoe": (
        "6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11", "11.5", "12", "13",
        "7 wide", "9 wide", "11 wide",
    ),
    "pants": (
        "28w x 30l", "30w x 30l", "30w x 32l", "32w x 30l", "32w x 32l", "33w x 32l", "34w x 30l",
        "34w x 32l", "34w x 34l", "36w x 32l", "38w x 32l", "40w x 30l",
    ),
    "kids": (
        "2t", "3t", "4t", "5", "6", "7", "8", "10", "12", "14",
    ),
    "ring": (
        "5", "6", "7", "8", "9", "10",
    ),
    "luggage": (
        "carry-on 20 inch", "checked-medium 24 inch", "checked-large 28 inch", "3-piece set",
    ),
    "denim_wash": (
        "dark wash", "light wash", "medium wash", "black", "stone wash", "indigo", "grey",
        "vintage blue",
    ),
    "sock_color": (
        "black", "white", "grey", "assorted", "navy blue", "multicolor",
    ),
    "metal_color": (
        "gold", "silver", "rose gold", "white gold", "black", "two tone",
    ),
    "beauty_size": (
        "1 fl oz", "1.7 fl oz", "3.4 fl oz", "8 fl oz", "16 fl oz", "0.5 ounce", "2 ounce",
        "4 ounce (pack of 2)", "6.8 fl oz", "12 fl oz (pack of 3)",
    ),
    "shade": (
        "fair", "light", "light medium", "medium", "natural beige", "ivory", "nude", "warm sand",
        "tan", "deep", "cocoa", "berry", "rose", "coral", "red", "plum", "mauve",
    ),
    "palette": (
        "nude", "smoky", "warm tones", "cool tones", "rose gold", "neon", "earth tones",
    ),
    "lash_color": (
        "black", "brown", "very black", "black brown",
    ),
    "hair_color": (
        "jet black", "dark brown", "medium brown", "light brown", "dark blonde",
        "light ash blonde", "auburn", "burgundy", "copper red", "platinum",
    ),
    "nail_color": (
        "red", "nude", "pink", "coral", "black", "white", "glitter silver", "burgundy", "lavender",
        "mint green", "navy blue", "french tip",
    ),
    "scent": (
        "lavender", "vanilla", "coconut", "citrus", "eucalyptus mint", "rose", "unscented",
        "sandalwood", "fresh linen", "ocean breeze", "cherry blossom", "tea tree",
        "cucumber melon",
    ),
    "count": (
        "1 count", "2 count", "3 pack", "4 pack", "6 pack", "10 count", "12 count", "24 count",
        "50 count", "100 count",
    ),
    "fit type": (
        "regular", "big & tall", "slim", "petite", "plus size", "relaxed",
    ),
    "accessory_style": (
        "classic", "minimalist", "vintage", "sport", "statement", "everyday",
    ),
    "tool_style": (
        "standard", "travel kit", "professional", "deluxe set", "compact",
    ),
    "audio_style": (
        "standard", "pro", "with charging case", "gaming edition", "bundle",
    ),
    "device_style": (
        "standard", "pro", "bundle", "2-pack", "with remote", "usb-c", "plus",
    ),
    "phone_model": (
        "iphone 14", "iphone 15", "iphone 15 pro max", "galaxy s23", "galaxy s24 ultra", "pixel 8",
        "iphone 13 mini", "galaxy a54",
    ),
    "screen_size": (
        "24 inch", "27 inch", "32 inch", "43 inch", "50 inch", "55 inch", "65 inch", "75 inch",
    ),
    "capacity": (
        "32gb", "64gb", "128gb", "256gb", "512gb", "1tb", "2tb",
    ),
    "battery": (
        "5000mah", "10000mah", "20000mah", "26800mah",
    ),
    "band_size": (
        "38mm", "40mm", "41mm", "44mm", "45mm", "small | medium", "medium | large",
    ),
    "length": (
        "3 ft", "6 ft", "10 ft", "1 ft", "6.6 ft (2 pack)",
    ),
    "food_size": (
        "8 ounce", "12 ounce", "16 ounce (pack of 1)", "1.5 pound (pack of 2)", "24 ounce",
        "2 pound", "4.2 ounce (pack of 6)", "1 ounce (pack of 24)", "32 fl oz (pack of 2)",
        "5 pound",
    ),
    "flavor name": (
        "chocolate", "vanilla", "strawberry", "peanut butter", "salted caramel",
        "cookies and cream", "mixed berry", "lemon", "mango", "original", "cinnamon", "honey",
        "sea salt", "blueberry", "cherry", "variety pack", "coconut", "mint chocolate", "apple",
        "pumpkin spice",
    ),
    "nut_flavor": (
        "lightly salted", "honey roasted", "smoked", "unsalted", "sea salt", "chili lime",
    ),
    "jerky_flavor": (
        "original", "teriyaki", "peppered", "sweet and spicy", "hickory smoked",
    ),
    "coffee_flavor": (
        "french roast", "breakfast blend", "colombian", "hazelnut", "vanilla", "espresso roast",
        "house blend",
    ),
    "tea_flavor": (
        "peppermint", "chamomile", "earl grey", "jasmine", "ginger lemon", "english breakfast",
    ),
    "sauce_flavor": (
        "original", "garlic", "spicy", "marinara", "honey bbq", "habanero", "teriyaki",
    ),
    "spread_flavor": (
        "creamy", "crunchy", "strawberry", "raw wildflower", "chocolate hazelnut",
    ),
    "gift_style": (
        "classic", "deluxe", "premium", "sweet treats", "savory",
    ),
    "material type": (
        "wood", "metal", "fabric", "leather", "velvet", "linen", "rattan", "bamboo",
    ),
    "table_size": (
        "small", "medium", "large", "40 inch", "47 inch", "55 inch", "63 inch",
    ),
    "shelf_size": (
        "3 tier", "4 tier", "5 tier", "6 tier", "small", "large",
    ),
    "bed_size": (
        "twin", "full", "queen", "king", "california king",
    ),
    "drawer_count": (
        "3 drawer", "4 drawer", "5 drawer", "6 drawer", "9 drawer",
    ),
    "chair_style": (
        "with footrest", "without footrest", "mesh back", "high back", "standard",
    ),
    "bag_size": (
        "small", "medium", "large", "x-large",
    ),
    "ottoman_size": (
        "small", "medium", "large", "set of 2",
    ),
    "mirror_size": (
        "16 x 20 inch", "24 x 36 inch", "22 x 65 inch", "round 24 inch",
    ),
    "divider_panels": (
        "3 panel", "4 panel", "6 panel", "8 panel",
    ),
}
# fmt: on


@dataclass(frozen=True)
class Subcategory:
    """One query subcategory: where products of one 'scraped query' come from."""

    index: int
    top: str  # one of TOP_CATEGORIES
    breadcrumb: tuple[str, ...]  # root first
    nouns: tuple[str, ...]  # head noun phrases for titles; nouns[0] names the subcategory
    attributes: tuple[str, ...]  # the subcategory's own attributes; each fits all its nouns
    option_groups: tuple[tuple[str, str], ...]  # (group name, pool name)
    price_range: tuple[float, float]

    @property
    def query(self) -> str:
        """The query string products of this subcategory were 'scraped' under."""
        return self.nouns[0]

    @property
    def product_category(self) -> str:
        return BREADCRUMB_SEPARATOR.join(self.breadcrumb)


def _parse_table(table: str) -> tuple[Subcategory, ...]:
    subcategories = []
    entries: list[str] = []
    for line in table.strip().splitlines():
        if line.startswith(" "):  # a continuation of the entry above
            entries[-1] += line.strip()
        else:
            entries.append(line)
    for entry in entries:
        top, path, nouns, attributes, groups, prices = entry.split("|")
        low, high = (float(x) for x in prices.split("-"))
        option_groups = tuple(
            (name, pool or name) for name, _, pool in (g.partition("=") for g in groups.split(","))
        )
        subcategories.append(
            Subcategory(
                index=len(subcategories),
                top=top,
                breadcrumb=ROOT_BREADCRUMB[top] + tuple(path.split(">")),
                nouns=tuple(nouns.split(",")),
                attributes=tuple(attributes.split(",")),
                option_groups=option_groups,
                price_range=(low, high),
            )
        )
    return tuple(subcategories)


SUBCATEGORIES: tuple[Subcategory, ...] = _parse_table(SUBCATEGORY_TABLE)

#: Query subcategories held out of train/valid/test goals for the ``ood`` split (every 9th).
OOD_SUBCATEGORIES: frozenset[int] = frozenset(s.index for s in SUBCATEGORIES if s.index % 9 == 4)

#: Audience words that read as nouns in titles ("Men's ...").
AUDIENCE_NOUNS: dict[str, str] = {"men's": "men", "women's": "women", "kids": "kids"}
